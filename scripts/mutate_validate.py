#!/usr/bin/env python3
"""Mutation differential for the validator (issue #3): HSAILasm vs `hsakit validate`.

Takes valid HSAIL files, makes one small PRM-relevant mutation at a time
(type suffix, modifiers, operand kinds/registers/immediates, vector counts,
address forms, duplicated/deleted/moved lines), runs both tools on each
mutant and writes one JSON line per mutant (verdicts and first messages).
Disagreements are kept as files for inspection; classify each with the PRM.

Usage: scripts/mutate_validate.py OUT.jsonl N SEED FILES...
  (HSAKIT=path to the hsakit binary, default target/debug/hsakit; J=jobs)
e.g. scripts/mutate_validate.py /tmp/r.jsonl 3000 1 $(find tests/corpus tests/finalize -name '*.hsail')
"""
import os, re, sys, random, subprocess, json, tempfile
from concurrent.futures import ThreadPoolExecutor
HSAKIT = os.environ.get('HSAKIT', 'target/debug/hsakit')
TYPES = ['b1','b8','b16','b32','b64','b128','u8','u16','u32','u64','s8','s16','s32','s64','f16','f32','f64',
         'u8x4','u8x8','s16x2','u16x4','f16x2','f32x2','s32x2','u8x16','f64x2','roimg','rwimg','samp','sig32','sig64']
MODS = ['ftz','near','zero','up','down','neari','zeroi','upi','downi','nears','zeros','ups','downs','sneari','szeroi',
        'supi','sdowni','sat','pp','ps','sp','ss','pp_sat','global','group','private','kernarg','readonly','spill','arg',
        'flat','rlx','scacq','screl','scar','wave','wg','agent','system','width(64)','width(all)','width(1)','width(WAVESIZE)',
        'align(1)','align(2)','align(4)','align(8)','align(16)','align(3)','equiv(0)','equiv(1)','equiv(255)','equiv(256)',
        'const','v2','v3','v4','nonull','uni','small','ftz_up','eq','ne','lt','gtu','num','sgt','equ','lo','hi','geometry']
OPCODE_RE = re.compile(r'^(\s*)([a-z][a-z0-9_()]*)(\s+|;)(.*)$')
def split_ops(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([': depth += 1
        if ch in ')]': depth -= 1
        if ch == ',' and depth == 0: out.append(cur); cur = ''
        else: cur += ch
    out.append(cur); return out
def opcode_tokens(op):
    return re.findall(r'[a-z0-9]+\([^)]*\)|[a-z0-9]+', op)
REGMUT = [lambda m: '$s'+m.group(2), lambda m: '$d'+m.group(2), lambda m: '$c'+m.group(2), lambda m: '$q'+m.group(2),
          lambda m: '$s2047', lambda m: '$s2048', lambda m: '$c128', lambda m: '$d1024', lambda m: '$q512', lambda m: '$c127']
def mutations(line, rng):
    m = OPCODE_RE.match(line)
    if not m: return []
    ind, op, sep, rest = m.groups()
    if op in ('module','kernel','function','decl','prog','extension','pragma','loc','enablebreakexceptions','maxdynamicgroupsize',
              'version','indirect','alloc','signature','global','group','private','readonly','kernarg','spill','arg','fbarrier','align','const') or op.split('_')[0] in ('global','group','private','readonly','kernarg','spill','arg','align','const'):
        kind = 'decl'
    else:
        kind = 'inst'
    toks = opcode_tokens(op); res = []
    if kind == 'inst' and len(toks) > 0:
        for i in range(1, len(toks)):
            t = toks[i]
            if t in TYPES: res.append(('type', toks[:i]+[rng.choice(TYPES)]+toks[i+1:]))
            else: res.append(('mod', toks[:i]+[rng.choice(MODS)]+toks[i+1:]))
            res.append(('del', toks[:i]+toks[i+1:]))
        for _ in range(3):
            i = rng.randrange(1, len(toks)+1)
            res.append(('ins', toks[:i]+[rng.choice(MODS+TYPES)]+toks[i:]))
        res = [(k, ind+'_'.join(t)+sep+rest) for k, t in res]
    else:
        toks2 = op.split('_')
        for i in range(len(toks2)):
            res.append(('dmod', ind+'_'.join(toks2[:i]+[rng.choice(MODS+TYPES)]+toks2[i+1:])+sep+rest))
    # operand mutations
    body = rest.rstrip()
    if body.endswith(';'):
        ops = split_ops(body[:-1])
        for i, o in enumerate(ops):
            for mm in re.finditer(r'\$(s|d|c|q)(\d+)', o):
                f = rng.choice(REGMUT)
                no = o[:mm.start()] + f(mm) + o[mm.end():]
                res.append(('reg', ops[:i]+[no]+ops[i+1:]))
                break
            so = o.strip()
            if re.match(r'^-?(0x[0-9a-f]+|\d+)$', so):
                for rep in ['$s9','WAVESIZE','0x1ffffffffff','-1','1.5','0f3f800000','0d3ff0000000000000','_u32x2(1,2)','%nosuch','@L0']:
                    res.append(('imm', ops[:i]+[' '+rep]+ops[i+1:]))
            elif so.startswith('$'):
                for rep in ['1','WAVESIZE','0.5','@nolabel','&nosuch']:
                    res.append(('r2x', ops[:i]+[' '+rep]+ops[i+1:]))
            elif so.startswith('('):
                inner = so[1:-1].split(',')
                res.append(('vec-', ops[:i]+[' ('+','.join(inner[:-1])+')']+ops[i+1:]))
                res.append(('vec+', ops[:i]+[' ('+','.join(inner+[' $s99' if '$s' in so else ' $d99'])+')']+ops[i+1:]))
            elif so.startswith('['):
                for rep in ['[$s7]','[$d7]','[$c1]','[%nosuch]','[$d7+0x100000000]','[$d7-1]','[&nosuch]','[$q1]']:
                    res.append(('addr', ops[:i]+[' '+rep]+ops[i+1:]))
        res2 = []
        for k, v in res:
            if isinstance(v, list): res2.append((k, ind+op+sep+','.join(v).lstrip(' ')+';' if False else ind+op+' '+','.join(v).strip()+';'))
            else: res2.append((k, v))
        res = res2
        if len(ops) > 0:
            res.append(('ops-', ind+op+' '+','.join(ops[:-1]).strip()+';'))
            res.append(('ops+', ind+op+' '+','.join(ops+[ops[-1]]).strip()+';'))
    return res
def structural(lines, rng):
    """whole-line mutations: duplicate a line, delete a line, move a line."""
    res = []
    i = rng.randrange(len(lines))
    res.append(('dup', i, lines[:i+1]+[lines[i]]+lines[i+1:]))
    res.append(('delete', i, lines[:i]+lines[i+1:]))
    j = rng.randrange(len(lines))
    l2 = lines[:i]+lines[i+1:]; l2.insert(j, lines[i]); res.append(('move', i, l2))
    return res
def verdict_asm(path):
    r = subprocess.run(['HSAILasm', path, '-o', path+'.brig'], capture_output=True, text=True, timeout=20)
    return r.returncode == 0, (r.stdout+r.stderr).strip().splitlines()[-1:] if r.returncode else []
def verdict_hk(path):
    try:
        r = subprocess.run([HSAKIT, 'validate', path], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return 'timeout', ['TIMEOUT']
    if r.returncode not in (0, 1): return 'crash', [r.stderr[-300:]]
    return r.returncode == 0, [l for l in r.stderr.splitlines() if 'error' in l][:1]
def main():
    out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    files = sys.argv[4:]
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix='negmut')
    cands = []
    for f in files:
        lines = open(f).read().split('\n')
        for li, l in enumerate(lines):
            if l.strip().startswith('//') or not l.strip(): continue
            for k, nl in mutations(l, rng):
                cands.append((f, li, k, nl))
        for _ in range(2):
            for k, i, nls in structural(lines, rng):
                cands.append((f, i, k, nls))
    rng.shuffle(cands)
    cands = cands[:n]
    def run(idx):
        f, li, k, nl = cands[idx]
        lines = open(f).read().split('\n')
        if isinstance(nl, list): new = nl; shown = lines[li]
        else: new = lines[:li]+[nl]+lines[li+1:]; shown = nl
        p = os.path.join(tmp, 'm%d.hsail' % idx)
        open(p, 'w').write('\n'.join(new))
        a, am = verdict_asm(p); h, hm = verdict_hk(p)
        rec = dict(file=f, line=li+1, kind=k, text=shown, asm=a, hk=h, asm_msg=am, hk_msg=hm, path=p)
        if a == h: os.remove(p)
        if os.path.exists(p+'.brig'): os.remove(p+'.brig')
        return rec
    with ThreadPoolExecutor(int(os.environ.get('J', '2'))) as ex, open(out, 'w') as fo:
        for rec in ex.map(run, range(len(cands))):
            fo.write(json.dumps(rec)+'\n')
main()
