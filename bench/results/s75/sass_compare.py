#!/usr/bin/env python3
"""Compare the sm_90a SASS of two mxgemm builds kernel by kernel (session 75).

usage: sass_compare.py OLD_BINARY NEW_BINARY
Needs cuobjdump and nvdisasm on PATH (this machine's toolkit has neither: the
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels carry them; see README.md).
Prints the kernels whose SASS differs (anonymous-namespace hashes and addresses, which
differ between checkouts in other folders, masked) and, for the skinny kernel's instances,
a count of the instructions that tell where the activation comes from.
"""
import collections
import re
import subprocess
import sys


def norm(s):
    return re.sub(r'_GLOBAL__N__[0-9a-f_]+|_INTERNAL_[0-9a-f_]+', '_ANON_', s)


def kernels(binary):
    sass = subprocess.run(['cuobjdump', '-sass', binary], capture_output=True, text=True, check=True).stdout
    out, cur, buf = {}, None, []
    for line in sass.splitlines():
        if line.startswith('Fatbin') or 'code for sm_' in line or re.match(r'\s*Function : ', line):
            if cur:
                out[cur] = buf
            cur, buf = None, []
            m = re.match(r'\s*Function : (\S+)', line)
            if m:
                cur = norm(m.group(1))
            continue
        if cur:
            buf.append(norm(re.sub(r'/\*[0-9a-f]{4,}\*/', '', line)))
    if cur:
        out[cur] = buf
    return out


def demangle(name):
    return subprocess.run(['c++filt', name], capture_output=True, text=True).stdout.strip()


def opcode_counts(lines):
    ops = collections.Counter()
    for line in lines:
        m = re.search(r'^\s*(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]+)', line)
        if m:
            ops[m.group(1)] += 1
    return ops


def main():
    old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
    differ = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    print(f'{len(set(old) | set(new))} kernels, {len(differ)} differ')
    for k in differ:
        print(f'  {len(old.get(k, []))} -> {len(new.get(k, []))} lines  {demangle(k)[:150]}')
    print('skinny instances (old -> new): LDG LDS LDSM STS UTMALDG LDGSTS HMMA')
    for k in sorted(set(old) & set(new)):
        if 'skinny_gemm_sm90_kernel' not in k:
            continue
        cols = ['LDG', 'LDS', 'LDSM', 'STS', 'UTMALDG', 'LDGSTS', 'HMMA']
        a, b = opcode_counts(old[k]), opcode_counts(new[k])
        name = re.sub(r'\(CUtensorMap.*', '', demangle(k)).replace('mxgemm::', '')
        print(f'  {name}: ' + ' '.join(f'{a[c]}->{b[c]}' if a[c] != b[c] else f'{a[c]}' for c in cols))


if __name__ == '__main__':
    main()
