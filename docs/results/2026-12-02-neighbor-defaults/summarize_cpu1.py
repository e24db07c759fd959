import json,statistics as st,re,sys
d=sys.argv[1]
for deck in ['lj_bench','lj_melt']:
  for cfg in ['old','new']:
    rs=[json.load(open(f'{d}/cpu1_{deck}_{cfg}_r{r}.json')) for r in (1,2,3)]
    cpu=[]
    for r in (1,2,3):
      t=open(f'{d}/cpu1_{deck}_{cfg}_r{r}.txt').read()
      m=re.search(r'user ([\d.]+) system ([\d.]+) wall ([\d.]+)',t); cpu.append(round(float(m[1])+float(m[2]),2))
    a=[r['atom_steps_per_s'] for r in rs]
    ts=[r['time_split_ms_per_step'] for r in rs]
    print(f"{deck} {cfg} ({rs[0]['steps']} steps, 1 thread): atom-steps/s {' '.join('%.4g'%x for x in a)} median {st.median(a):.4g} (min..max {min(a):.3g}..{max(a):.3g}); CPU s {cpu} median {st.median(cpu)}; builds {[r['neighbors']['builds'] for r in rs]}, dangerous {[r['neighbors']['dangerous_builds'] for r in rs]}; median ms/step force {st.median([t['force'] for t in ts]):.3g} neighbor {st.median([t['neighbor'] for t in ts]):.3g}; rebuild ms each {st.median([r['rebuild_ms_each'] for r in rs]):.3g}")
