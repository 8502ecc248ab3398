#!/usr/bin/env python3
"""man_text.py LANG OUTDIR [PAGES] -- real prose of a language for the tests.

Reads the first PAGES (default 12) translated man pages of Debian's
manpages-LL (/usr/share/man/LL/man1, byte-wise order of their names),
strips the troff requests and escapes, and writes:
  OUTDIR/docs/NNN-page.txt   the pages as plain text (document mode)
  OUTDIR/words.txt           their distinct words, and a typo of every
                             fifth one (one deleted, inserted, replaced or
                             swapped letter, seeded), one per line
Deterministic: the same packages give the same files. Exits 77 when the
man pages are not installed (scripts/install-deps.sh installs them).
"""
import gzip
import os
import random
import re
import sys

MAN = {'de_DE': 'de', 'fr_FR': 'fr', 'es_ES': 'es', 'ru_RU': 'ru', 'nl_NL': 'nl', 'sv_SE': 'sv'}


def troff_to_text(raw):
    out = []
    for line in raw.splitlines():
        if line.startswith(('.', "'")):
            parts = line.split(None, 1)
            keep = ('.B', '.I', '.BR', '.IR', '.RB', '.RI', '.BI', '.IB', '.SH', '.SS', '.TP', '.IP')
            if parts and parts[0] in keep and len(parts) > 1:
                line = parts[1]
            else:
                continue
        line = re.sub(r'\\f[BIRPC]|\\f\(..|\\f\[[^]]*\]|\\\(..|\\\[[^]]*\]|\\[&e|^~-]|\\\*.|\\s[-+]?\d', ' ', line)
        out.append(line.replace('"', ' '))
    return '\n'.join(out) + '\n'


def main():
    lang, outdir = sys.argv[1], sys.argv[2]
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    mandir = f'/usr/share/man/{MAN[lang]}/man1'
    if not os.path.isdir(mandir):
        print(f'SKIP: {mandir} missing (manpages-{MAN[lang]})')
        sys.exit(77)
    names = sorted(n for n in os.listdir(mandir) if n.endswith('.gz'))
    os.makedirs(os.path.join(outdir, 'docs'), exist_ok=True)
    words = set()
    written = 0
    for name in names:
        if written == pages:
            break
        try:
            text = troff_to_text(gzip.open(os.path.join(mandir, name)).read().decode('utf-8'))
        except (UnicodeDecodeError, OSError, EOFError):
            continue
        with open(os.path.join(outdir, 'docs', f'{written:03d}-{name[:-3]}.txt'), 'w', encoding='utf-8') as f:
            f.write(text)
        words.update(w for w in re.findall(r'\w+', text) if w.isalpha() and 2 <= len(w) <= 30)
        written += 1
    rng = random.Random(f'spellcheck-man-text-{lang}')
    letters = sorted(set(''.join(words)))
    typos = set()
    for w in sorted(words)[::5]:
        i = rng.randrange(len(w))
        k = rng.randrange(4)
        if k == 0:
            t = w[:i] + w[i + 1:]
        elif k == 1:
            t = w[:i] + rng.choice(letters) + w[i:]
        elif k == 2:
            t = w[:i] + rng.choice(letters) + w[i + 1:]
        else:
            t = w[:i] + w[i + 1:i + 2] + w[i] + w[i + 2:]
        if t:
            typos.add(t)
    with open(os.path.join(outdir, 'words.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(w + '\n' for w in sorted(words | typos)))
    print(f'{lang}: {written} pages, {len(words)} words, {len(typos)} typos')


main()
