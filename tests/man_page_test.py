#!/usr/bin/env python3
"""The man page (packaging/spellcheck.1) in step with `spellcheck --help`:
the options listed in --help's "Options:" block are exactly the ones the
man page's OPTIONS section lists (each .TP tag), the SPELLCHECK_* variables
are the same, the .TH line names the version --version prints, and groff
formats the page without a warning.

    man_page_test.py SPELLCHECK_BINARY MAN_PAGE
"""
import re
import shutil
import subprocess
import sys

OPTION = re.compile(r'(?<![\w-])(--?[a-z][a-z0-9-]*)(?![\w-])')
ENV = re.compile(r'\bSPELLCHECK_[A-Z_]+\b')


def help_options(text):
    """Option names at the start of the lines of the option blocks: the
    "Options:" block and the "Tuning options" block."""
    names = set()
    for heading in ('\nOptions:\n', '\nTuning options'):
        block = text.split(heading, 1)[1].split('\n\n', 1)[0]
        for line in block.splitlines():
            tag = line.strip()
            if not line.startswith('  -'):
                continue  # a description's continuation line
            tag = re.split(r'\s{2,}', tag)[0]  # the tag ends where the description starts
            names.update(OPTION.findall(tag))
    return names


def man_options(roff):
    """Option names in the tags (the line after .TP) of the OPTIONS section."""
    section = roff.split('\n.SH OPTIONS\n', 1)[1].split('\n.SH ', 1)[0]
    lines = section.splitlines()
    names = set()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == '.TP':
            tag = re.sub(r'\\f[BIRP]', '', lines[i + 1]).replace('\\-', '-')
            names.update(OPTION.findall(tag))
    return names


def main():
    binary, page = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([binary, '--help'], capture_output=True, text=True, check=True).stdout
    version = subprocess.run([binary, '--version'], capture_output=True, text=True, check=True).stdout.strip()
    with open(page, encoding='utf-8') as f:
        roff = f.read()
    failures = []
    in_help, in_man = help_options(help_text), man_options(roff)
    if len(in_help) < 20:
        failures.append('found only %d options in --help: is the "Options:" block still there?' % len(in_help))
    for name in sorted(in_help - in_man):
        failures.append('%s is in --help but not in the man page\'s OPTIONS' % name)
    for name in sorted(in_man - in_help):
        failures.append('%s is in the man page\'s OPTIONS but not in --help' % name)
    env_help, env_man = set(ENV.findall(help_text)), set(ENV.findall(roff.replace('\\-', '-')))
    for name in sorted(env_help ^ env_man):
        failures.append('%s is in %s only' % (name, '--help' if name in env_help else 'the man page'))
    th = re.search(r'^\.TH .*"(spellcheck [^"]+)"', roff, re.M)
    if not th or th.group(1) != version:
        failures.append('the .TH line names %r, --version prints %r' % (th.group(1) if th else None, version))
    if shutil.which('groff'):
        g = subprocess.run(['groff', '-man', '-Tutf8', '-ww', '-z', page], capture_output=True, text=True)
        if g.returncode != 0 or g.stderr.strip():
            failures.append('groff warns: ' + g.stderr.strip())
    for f in failures:
        print('man page: ' + f)
    print('--help: %d options, %d variables; man page: %d options, %d variables' % (
        len(in_help), len(env_help), len(in_man), len(env_man)))
    print('%d passed, %d failed' % (1 if not failures else 0, 1 if failures else 0))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
