#!/usr/bin/env python3
"""Check the HSAIL corpus against HSAILasm.

For every tests/corpus/**/*.hsail:
  1. `HSAILasm f.hsail -o a.brig` exits 0 and prints nothing;
  2. `HSAILasm -disassemble a.brig -o d.hsail`, then assembling d.hsail
     gives byte-identical BRIG (the file is canonical-stable);
  3. disassembling that BRIG again gives identical text (fixed point).
For every tests/corpus-bad/*.hsail: HSAILasm exits 1 and reports the error
at the LINE:COL given by the first-line comment `// expect-error: LINE:COL`.

  4. (whole-corpus run only) every HSAIL opcode of PRM 18.3 (BrigOpcode,
     137 opcodes incl. nop) appears in some valid file.

Usage: python3 tests/corpus/check_corpus.py [FILE...]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(os.path.dirname(HERE), "corpus-bad")

# The BrigOpcode names of PRM 18.3 (HSAIL 1.0), lower case.
OPCODES = """
    abs activelanecount activelaneid activelanemask activelanepermute add addqueuewriteindex 
    alloca and arrivefbar atomic atomicnoret barrier bitalign bitextract bitinsert bitmask 
    bitrev bitselect borrow br bytealign call carry casqueuewriteindex cbr ceil class 
    cleardetectexcept clock cmov cmp combine copysign cuid currentworkgroupsize 
    currentworkitemflatid cvt debugtrap dim div expand firstbit floor fma fract ftos 
    getdetectexcept gridgroups gridsize groupbaseptr icall imagefence initfbar joinfbar 
    kernargbaseptr laneid lastbit ld lda ldf ldimage ldqueuereadindex ldqueuewriteindex 
    leavefbar lerp mad mad24 mad24hi max maxcuid maxwaveid memfence min mov mul mul24 mul24hi 
    mulhi ncos neg nexp2 nfma nlog2 nop not nrcp nrsqrt nsin nsqrt nullptr or pack packcvt 
    packetcompletionsig packetid popcount queryimage querysampler rdimage releasefbar rem ret 
    rint sad sadhi sbr scall segmentp setdetectexcept shl shr shuffle signal signalnoret sqrt 
    st stimage stof stqueuereadindex stqueuewriteindex sub trunc unpack unpackcvt unpackhi 
    unpacklo waitfbar wavebarrier waveid workgroupid workgroupsize workitemabsid 
    workitemflatabsid workitemflatid workitemid xor
""".split()


def missing_opcodes(files):
    text = "\n".join(open(f).read() for f in files)
    return [op for op in OPCODES if not re.search(r"(^|\s)%s(_|;|\s)" % re.escape(op), text, re.M)]


def run(*args):
    p = subprocess.run(["HSAILasm", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def check_good(path, tmp):
    a, d, b, d2 = (os.path.join(tmp, n) for n in ("a.brig", "d.hsail", "b.brig", "d2.hsail"))
    rc, out = run(path, "-o", a)
    if rc != 0 or out.strip():
        return "assemble failed (rc %d): %s" % (rc, out.strip())
    rc, out = run("-disassemble", a, "-o", d)
    if rc != 0:
        return "disassemble failed: " + out.strip()
    rc, out = run(d, "-o", b)
    if rc != 0 or out.strip():
        return "re-assembling the disassembly failed: " + out.strip()
    if open(a, "rb").read() != open(b, "rb").read():
        return "not canonical-stable: BRIG differs after disassemble/reassemble"
    rc, out = run("-disassemble", b, "-o", d2)
    if open(d, "rb").read() != open(d2, "rb").read():
        return "disassembly is not a fixed point"
    return None


def check_bad(path, tmp):
    with open(path) as f:
        first = f.readline()
    m = re.match(r"//\s*expect-error:\s*(\d+):(\d+)", first)
    if not m:
        return "missing `// expect-error: LINE:COL` first line"
    rc, out = run(path, "-o", os.path.join(tmp, "x.brig"))
    if rc != 1:
        return "expected exit 1, got %d" % rc
    want = "input(%s,%s):" % (m.group(1), m.group(2))
    if want not in out:
        return "expected error at %s, HSAILasm said: %s" % (want, out.strip())
    return None


def main(argv):
    files = argv or sorted(glob.glob(os.path.join(HERE, "**", "*.hsail"), recursive=True)
                           + glob.glob(os.path.join(BAD, "*.hsail")))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            bad = os.path.abspath(f).startswith(BAD + os.sep)
            err = check_bad(f, tmp) if bad else check_good(f, tmp)
            if err:
                failures += 1
                print("FAIL %s: %s" % (os.path.relpath(f), err))
    if not argv:
        good = [f for f in files if not os.path.abspath(f).startswith(BAD + os.sep)]
        for op in missing_opcodes(good):
            failures += 1
            print("FAIL opcode %s appears in no corpus file" % op)
    print("%d files, %d failures" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
