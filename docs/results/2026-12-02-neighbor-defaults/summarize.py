import json,statistics as st,csv,sys
import numpy as np
d=sys.argv[1]
for deck in ['lj_bench','lj_melt']:
  for cfg in ['old','new']:
    rs=[json.load(open(f'{d}/{deck}_{cfg}_r{r}.json')) for r in (1,2,3)]
    a=[r['atom_steps_per_s'] for r in rs]
    b=[r['neighbors']['builds'] for r in rs]
    dg=[r['neighbors']['dangerous_builds'] for r in rs]
    ts=[r['time_split_ms_per_step'] for r in rs]
    print(f"{deck} {cfg}: atom-steps/s {' '.join('%.4g'%x for x in a)} median {st.median(a):.4g}; builds {b} dangerous {dg}; median ms/step force {st.median([t['force'] for t in ts]):.3g} neighbor {st.median([t['neighbor'] for t in ts]):.3g} integrate {st.median([t['integrate'] for t in ts]):.3g}; rebuild ms each {st.median([r['rebuild_ms_each'] for r in rs]):.3g}")
for deck in ['lj_melt','lj_bench']:
  for cfg in ['old','new']:
    rows=list(csv.DictReader(open(f'{d}/drift_{deck}_{cfg}.csv')))
    s=np.array([float(r['step']) for r in rows]); e=np.array([float(r['etotal']) for r in rows])
    j=json.load(open(f'{d}/drift_{deck}_{cfg}.json'))
    m=s>=500
    slope=np.polyfit(s[m]*0.005,e[m],1)[0]
    print(f"drift {deck} {cfg}: {int(s[-1])} steps, E0 {e[0]:.7f}, E_end {e[-1]:.7f}, E_end-E0 {e[-1]-e[0]:+.3e}, max|E-E0| {np.max(np.abs(e-e[0])):.3e}, slope from step 500 {slope:+.2e} per tau; builds {j['neighbors']['builds']}, dangerous {j['neighbors']['dangerous_builds']}, {j['atom_steps_per_s']:.4g} atom-steps/s")
