#!/usr/bin/env python3
"""Lists the restriction sentences of the PRM text, for the sentence sweep
of the validator (docs/validator-audit/sentence-sweep.md).

Usage: python3 scripts/prm_restriction_sentences.py PRM.txt > sentences.txt

Takes ch. 2, 4-14, 16, 18 and Appendix A of the text export of HSA PRM 1.0
(line ranges of that export), splits paragraphs into sentences and keeps
those with a restriction word (must, cannot, only, invalid, required, at
most, ...), each as `Snnnn [section] sentence`. Not used by any build or
test: the PRM is read only when this is run by hand.
"""
import re, sys

# (first line, last line, chapter) of the chapters in the text export.
RANGES = [(892, 1689, '2'), (1810, 3900, '4'), (3900, 6293, '5'), (6293, 7443, '6'),
          (7443, 8716, '7'), (8716, 8789, '8'), (8789, 9381, '9'), (9381, 10026, '10'),
          (10026, 10479, '11'), (10479, 10628, '12'), (10628, 10941, '13'),
          (10941, 11020, '14'), (11109, 11199, '16'), (11433, 14371, '18'), (15299, 15331, 'A')]
KEYWORDS = re.compile(r"\b(must|must not|is an error|not allowed|cannot|can only|only|is not supported|"
                      r"invalid|required|at most|at least|exactly|shall|not permitted|illegal|may not)\b", re.I)
HEADING = re.compile(r'^(\d+(?:\.\d+)+|[A-Z]\.\d+)\s+[A-Z]')


def main(path):
    lines = open(path).read().split('\n')
    n = 0
    for a, b, chapter in RANGES:
        cur, buf, paras = chapter, [], []
        for line in lines[a:b]:
            s = line.strip()
            m = HEADING.match(s)
            if m and len(s) < 90 and not s.endswith('.'):
                if buf:
                    paras.append((cur, ' '.join(buf)))
                    buf = []
                cur = m.group(1)
                continue
            if not s:
                if buf:
                    paras.append((cur, ' '.join(buf)))
                    buf = []
                continue
            buf.append(s)
        if buf:
            paras.append((cur, ' '.join(buf)))
        for sec, p in paras:
            for sent in re.split(r'(?<=[.;])\s+(?=[A-Z•])', p):
                if KEYWORDS.search(sent) and len(sent) > 15:
                    n += 1
                    print('S%04d [%s] %s' % (n, sec, sent[:400]))


if __name__ == '__main__':
    main(sys.argv[1])
