BEGIN { s = 0 }
/^E:/ { t=$3; c=$4; v=$5+0;
 if (t=="0003" && c=="002f") s=v;
 else if (t=="0003" && c=="0039") { old=(s in id)?id[s]:-1; if (v>=0 && v!=old) { if(old>=0) ends++; begins++; id[s]=v } else if (v<0 && old>=0) { ends++; id[s]=-1 } }
 else if (t=="0000" && c=="0000") { syn++; n=0; for (k in id) if (id[k]>=0) n++; if (n>m) m=n; if (n>0 || prev>0) frames++; prev=n }
}
END { print FILENAME": SYN_REPORTs", syn, "frames", frames, "begins", begins, "ends", ends, "max down", m, "down at end", n }
