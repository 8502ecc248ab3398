"""sweep_verify -- which runs of a scaling sweep we trust (used by collect.py).

A run is accepted only if its job succeeded, its output's SHA-256 equals the
serial reference output of its dataset, and its stats.json matches the run
(rank and thread counts, misspelled words = output lines). check_run turns an
accepted run into one row of runs.csv; sweep_tables aggregates the rows.
"""
import glob
import hashlib
import json
import os
import sys

COUNT_KEYS = ['dictionary_entries', 'shard_entries_min', 'shard_entries_max', 'words', 'skipped_too_long',
              'distinct', 'misspelled', 'candidates_generated', 'filter_rejected', 'local_lookups',
              'sent_to_other_ranks', 'true_hits', 'filter_false_positive_rate', 'filter_bytes_per_rank',
              'messages_sent', 'bytes_sent']


def warn(msg):
    print('collect: ' + msg, file=sys.stderr)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def load_json(path):
    with open(path, 'rb') as f:
        return json.loads(f.read().decode('utf-8'))


def input_bytes(paths):
    total = 0
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                for n in names:
                    try:
                        total += os.path.getsize(os.path.join(d, n))
                    except OSError:
                        pass
        elif os.path.exists(p):
            total += os.path.getsize(p)
    return total




class Refs:
    """Reference checksums per dataset."""

    def __init__(self):
        self.files = {}   # dataset -> path
        self.cache = {}

    def add_dir(self, d):
        for p in glob.glob(os.path.join(d, '*.txt')):
            name = os.path.basename(p)[:-4]
            if name.isupper():  # TIMES.txt and the like
                continue
            self.files.setdefault(name, p)

    def sha(self, dataset):
        if dataset not in self.cache:
            p = self.files.get(dataset)
            self.cache[dataset] = (sha256_file(p), p) if p and os.path.isfile(p) else (None, p)
        return self.cache[dataset]


def find_runs(raw):
    metas = sorted(glob.glob(os.path.join(raw, 'runs', '*', 'meta.json')))
    if not metas:  # a plain directory of run directories
        metas = sorted(glob.glob(os.path.join(raw, '*', 'meta.json')))
    return metas


def check_geometry(meta):
    """-> None, or why the job's nodes x ranks per node x threads do not add up."""
    try:
        nodes, rpn, threads, ranks = (int(meta[k]) for k in ('nodes', 'ranks_per_node', 'threads', 'ranks'))
    except (KeyError, TypeError, ValueError):
        return 'meta.json lacks an integer nodes, ranks_per_node, threads or ranks'
    if min(nodes, rpn, threads, ranks) < 1:
        return 'geometry %d nodes x %d ranks x %d threads is not positive' % (nodes, rpn, threads)
    if ranks != nodes * rpn:
        return 'inconsistent geometry: %d ranks on %d nodes x %d ranks per node' % (ranks, nodes, rpn)
    return None


def check_run(meta_path, refs):
    """-> (row dict or None, reason or None)"""
    run_dir = os.path.dirname(meta_path)
    name = os.path.basename(run_dir)
    try:
        meta = load_json(meta_path)
    except (OSError, ValueError) as e:
        return None, 'unreadable meta.json (%s)' % e
    labels = meta.get('labels') or {}
    dataset = labels.get('dataset') or os.path.basename(str((meta.get('inputs') or ['?'])[0]))
    info = {'run': meta.get('name', name), 'dataset': dataset}
    out = os.path.join(run_dir, 'output.txt')
    if not os.path.isfile(out):
        out = meta.get('output') or out
    want, ref_path = refs.sha(dataset)
    # The checksum first: a wrong output is named as such even when the job
    # also failed. got is None when there is nothing to compare.
    got = sha256_file(out) if os.path.isfile(out) and want is not None else None
    if got is not None and got != want:
        return info, 'output checksum %s differs from reference %s (%s)' % (got[:16], want[:16], ref_path)
    if meta.get('exit_code', 1) != 0:
        return info, 'job failed (exit %s)' % meta.get('exit_code')
    if not os.path.isfile(out):
        return info, 'no output file'
    if want is None:
        return info, 'no reference output for dataset %s' % dataset
    geometry_error = check_geometry(meta)
    if geometry_error:
        return info, geometry_error
    stats_path = os.path.join(run_dir, 'stats.json')
    try:
        stats = load_json(stats_path)
    except (OSError, ValueError) as e:
        return info, 'no usable stats.json (%s)' % e
    if int(stats.get('ranks', -1)) != int(meta.get('ranks', -2)):
        return info, 'stats say %s ranks, the job ran %s' % (stats.get('ranks'), meta.get('ranks'))
    if int(stats.get('threads', -1)) != int(meta.get('threads', -2)):
        return info, 'stats say %s threads, the job asked for %s' % (stats.get('threads'), meta.get('threads'))
    counts = stats.get('counts') or {}
    with open(out, 'rb') as f:
        lines = sum(1 for _ in f)
    if 'misspelled' in counts and int(counts['misspelled']) != lines:
        return info, 'stats count %s misspelled words, the output has %d lines' % (counts['misspelled'], lines)

    row = {
        'sweep': labels.get('sweep', ''), 'run': info['run'], 'job_id': meta.get('job_id', ''),
        'kind': labels.get('kind', ''), 'dataset': dataset, 'mode': meta.get('mode', stats.get('mode', '')),
        'rep': labels.get('rep', ''), 'nodes': int(meta['nodes']), 'ranks_per_node': int(meta['ranks_per_node']),
        'threads': int(meta['threads']), 'ranks': int(meta['ranks']),
        'cores': int(meta['ranks']) * int(meta['threads']),
        'hw_cpus': int(meta.get('hw_cpus', 0)), 'oversubscribed': int(bool(meta.get('oversubscribed'))),
        'emulated_nodes': int(bool(meta.get('emulated_nodes'))), 'launcher': meta.get('launcher', ''),
        'bind': meta.get('bind', ''), 'setsid': meta.get('setsid', ''), 'host': meta.get('host', ''),
        'start': meta.get('start', ''),
        'loadavg_1min': (meta.get('loadavg') or '').split(' ')[0],
        'wall_seconds': float(meta.get('wall_seconds', 0.0)),
        'output_bytes': os.path.getsize(out), 'output_sha256': got,
        'dictionary_bytes': input_bytes([meta.get('dictionary', '')]),
        'input_bytes': input_bytes(meta.get('inputs') or []),
        'batch_bytes': (stats.get('options') or {}).get('batch_bytes', ''),
        'filter_bits': (stats.get('options') or {}).get('filter_bits', ''),
        'exchange': (stats.get('options') or {}).get('exchange', ''),
        'git': labels.get('git', ''),
    }
    phases = stats.get('phases') or {}
    for ph, v in phases.items():
        if isinstance(v, dict):
            row['t_%s_max' % ph] = v.get('max')
            row['t_%s_avg' % ph] = v.get('avg')
    for k in COUNT_KEYS:
        if k in counts:
            row[k] = counts[k]
    per_rank = stats.get('per_rank') or []
    if per_rank:
        b = [int(r.get('bytes_sent', 0)) for r in per_rank]
        m = [int(r.get('messages_sent', 0)) for r in per_rank]
        row['bytes_per_rank_avg'] = sum(b) / len(b)
        row['bytes_per_rank_min'] = min(b)
        row['bytes_per_rank_max'] = max(b)
        row['messages_per_rank_avg'] = sum(m) / len(m)
        row['messages_per_rank_max'] = max(m)
        rss = [int(r.get('peak_rss_bytes', 0)) for r in per_rank if 'peak_rss_bytes' in r]
        if rss:
            row['peak_rss_max'] = max(rss)
    row.update(traffic_columns(stats))
    return row, None


def traffic_columns(stats):
    """Per phase, from --stats phase_traffic: messages and bytes sent by the
    busiest rank (traffic_PHASE_messages_max, traffic_PHASE_bytes_max) and by
    all ranks together (..._total). Empty for stats files without it."""
    cols = {}
    totals = stats.get('phase_traffic') or {}
    per_rank = [r.get('phase_traffic') or {} for r in stats.get('per_rank') or []]
    for ph, v in totals.items():
        if ph == 'total' or not isinstance(v, dict):
            continue
        cols['traffic_%s_messages_total' % ph] = int(v.get('messages_sent', 0))
        cols['traffic_%s_bytes_total' % ph] = int(v.get('bytes_sent', 0))
        mine = [r[ph] for r in per_rank if isinstance(r.get(ph), dict)]
        if mine:
            cols['traffic_%s_messages_max' % ph] = max(int(r.get('messages_sent', 0)) for r in mine)
            cols['traffic_%s_bytes_max' % ph] = max(int(r.get('bytes_sent', 0)) for r in mine)
    return cols
