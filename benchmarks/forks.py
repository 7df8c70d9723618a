#!/usr/bin/env python3
"""Per-fork figures from JMH JSON files: each fork's iterations (throughput) or its p50/p99/p99.9 over all of its
samples (sample time), so that the spread between forks shows. Usage: python3 benchmarks/forks.py FILE.json..."""
import json,sys
for f in sys.argv[1:]:
    for b in json.load(open(f)):
        pm=b['primaryMetric']
        name=b['benchmark'].split('.')[-1]
        if b['mode']=='sample':
            out=[]
            for fork in pm['rawDataHistogram']:
                vals=[]
                for it in fork:
                    for v,c in it: vals.append((v,c))
                vals.sort(); n=sum(c for _,c in vals)
                def q(p):
                    t=p*n; s=0
                    for v,c in vals:
                        s+=c
                        if s>=t: return v
                out.append('n=%d p50 %.0f p99 %.0f p99.9 %.0f'%(n,q(.5),q(.99),q(.999)))
            print(name, ' | '.join(out))
        else:
            raw=pm['rawData']
            print(name, ' | '.join(' '.join('%.1f'%x for x in fork) for fork in raw), 'score %.2f ± %.2f'%(pm['score'],pm['scoreError']))
