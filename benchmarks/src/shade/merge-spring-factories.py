#!/usr/bin/env python3
"""Writes benchmarks/src/shade/spring.factories: every META-INF/spring.factories on the benchmarks' run-time class
path, merged key by key (SpringFactoriesMergeTest checks it). Usage, from the repository root:

  ./mvnw -B -ntp -o -q compile dependency:build-classpath -pl benchmarks -am \\
      -Dmdep.outputFile=/tmp/bench-cp.txt -Dmdep.includeScope=runtime
  python3 benchmarks/src/shade/merge-spring-factories.py /tmp/bench-cp.txt
"""
import os
import sys
import zipfile

NAME = 'META-INF/spring.factories'


def read(entry):
    if entry.endswith('.jar'):
        with zipfile.ZipFile(entry) as z:
            return z.read(NAME).decode('utf-8') if NAME in z.namelist() else None
    path = os.path.join(entry, NAME)
    return open(path, encoding='utf-8').read() if os.path.isfile(path) else None


def entries(text):
    """Key and values of each property, continuation lines joined (the files use key=\\ then one value a line)."""
    logical, current = [], ''
    for line in text.splitlines():
        s = line.strip()
        if not current and (not s or s.startswith('#') or s.startswith('!')):
            continue
        if s.endswith('\\'):
            current += s[:-1]
            continue
        logical.append(current + s)
        current = ''
    for line in logical:
        key, value = line.split('=', 1)
        yield key.strip(), [v.strip() for v in value.split(',') if v.strip()]


merged, sources = {}, []
for entry in open(sys.argv[1]).read().strip().split(os.pathsep):
    text = read(entry)
    if text is None:
        continue
    sources.append(os.path.basename(entry))
    for key, values in entries(text):
        known = merged.setdefault(key, [])
        known.extend(v for v in values if v not in known)

out = ["# META-INF/spring.factories of the shaded benchmarks.jar: every spring.factories on the benchmarks' class path,",
       '# merged key by key by merge-spring-factories.py (the shade plugin cannot: appending the files would keep only',
       "# the last value of each key). SpringFactoriesMergeTest fails when this no longer matches the class path.",
       '# From: ' + ', '.join(sources)]
for key, values in merged.items():
    out.append(key + '=\\')
    out.append(',\\\n'.join('  ' + v for v in values))
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'spring.factories'), 'w', encoding='utf-8') as f:
    f.write('\n'.join(out) + '\n')
