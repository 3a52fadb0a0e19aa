"""Re-runs every file a `verify bench` run answered SAFE or UNSAFE with `--witness-dir`, and checks the
witnesses: each GraphML violation witness passes the SV-COMP linter, each YAML 2.0 witness parses
with the required metadata (a violation sequence for UNSAFE — segments of one `follow` waypoint,
the last the target, branching constraints `true`/`false` — an invariant set of C loop invariants
for SAFE). Counts the GraphML edge data (assumption, control, enterFunction, returnFromFunction)
and the YAML waypoint types.

usage: witness-check.py VERIFY BENCH.json MANIFEST.tsv LINTER_PYTHON
(the linter is ../shared/tools/witnesslint/witnesslinter.py beside the manifest's directory tree;
LINTER_PYTHON must have lxml; this script needs PyYAML)
"""
import json, subprocess, sys, os, yaml, shutil, tempfile
verify, bench, manifest, linter_py = sys.argv[1:5]
res = json.load(open(bench))['results']
man = {l.split('\t')[0]: l.rstrip('\n').split('\t') for l in open(manifest)}
base = os.path.dirname(os.path.abspath(manifest)) + '/'
linter = os.path.join(base, '../../tools/witnesslint/witnesslinter.py')
root = tempfile.mkdtemp(prefix='witness-check-')
lint_ok = lint_bad = y_ok = y_bad = 0; inv_count = 0; conj_count = 0; safe_n = 0; unsafe_n = 0
bad = []
from collections import Counter
keys = Counter(); waypoints = Counter()
for i, r in enumerate(res):
    if r['verdict'] not in ('safe', 'unsafe'):
        continue
    feats = man[r['path']][4].split(',')
    prop = []
    if 'prop:datarace' in feats: prop = ['--property', 'no-data-race']
    elif 'no-explicit-assert' in feats: prop = ['--property', 'valid-memsafety']
    d = f'{root}/{i}'
    out = subprocess.run([verify, '--timeout', '10', '--format', 'json', '--witness-dir', d] + prop + [base + r['path']], capture_output=True, text=True)
    v = json.loads(out.stdout.splitlines()[0])['verdict']
    if v != r['verdict']:
        print('verdict changed', r['path'], v); continue
    y = f'{d}/witness.yml'
    try:
        doc = yaml.safe_load(open(y))
        e = doc[0]; m = e['metadata']
        for k in ('format_version', 'uuid', 'creation_time', 'producer'):
            assert k in m, k
        for k in ('input_files', 'input_file_hashes', 'specification', 'data_model', 'language'):
            assert k in m['task'], k
        if v == 'unsafe':
            assert e['entry_type'] == 'violation_sequence'
            segs = e['content']
            for k, seg in enumerate(segs):
                ws = seg['segment']
                assert [w['waypoint']['action'] for w in ws][-1] == 'follow'
                w = ws[-1]['waypoint']
                assert (w['type'] == 'target') == (k == len(segs) - 1), w
                if w['type'] == 'branching':
                    assert w['constraint']['value'] in ('true', 'false'), w
                if w['type'] == 'assumption':
                    assert w['constraint']['value'], w
                waypoints[w['type']] += 1
            unsafe_n += 1
        else:
            assert e['entry_type'] == 'invariant_set'
            safe_n += 1
            for c in e['content'] or []:
                inv = c['invariant']; assert inv['type'] == 'loop_invariant' and inv['format'] == 'c_expression'
                inv_count += 1
                conj_count += inv['value'].count(' && ') + 1
        y_ok += 1
    except Exception as ex:
        y_bad += 1; bad.append((r['path'], 'yaml', repr(ex)))
    if v == 'unsafe':
        g = f'{d}/witness.graphml'
        lo = subprocess.run([linter_py, linter, '--witness', g, base + r['path']], capture_output=True, text=True)
        text = open(g).read()
        for k in ('assumption', 'assumption.scope', 'control', 'enterFunction', 'returnFromFunction', 'startline'):
            keys[k] += text.count(f'<data key="{k}">')
        if lo.returncode == 0: lint_ok += 1
        else:
            lint_bad += 1; bad.append((r['path'], 'lint', lo.stdout[-300:] + lo.stderr[-300:]))
print(f'unsafe {unsafe_n} safe {safe_n}; graphml lint ok {lint_ok} bad {lint_bad}; yaml ok {y_ok} bad {y_bad}; loop invariants {inv_count} (conjuncts {conj_count})')
print('graphml edge data:', dict(keys))
print('yaml waypoints:', dict(waypoints))
for b in bad: print(b)
shutil.rmtree(root, ignore_errors=True)
sys.exit(1 if lint_bad or y_bad else 0)
