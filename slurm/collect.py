#!/usr/bin/env python3
"""collect.py -- verify, tabulate and plot a spellcheck scaling sweep.

    collect.py --raw DIR [--raw DIR ...] --out RESULTS [options]

Reads every run of the sweep(s) in DIR (DIR/runs/*/meta.json + stats.json, as
written by slurm/spellcheck.sbatch), checks each run's output against the
reference output of its dataset (DIR/ref/<dataset>.txt, written by the sweep's
reference job; or --reference DATASET=FILE), and REFUSES to record a run whose
output checksum differs, whose job failed, or whose stats do not match the
run (wrong rank/thread count, misspelled count != output lines). Accepted runs
go to:

  RESULTS/runs.csv      one row per run: nodes, ranks, threads, dataset, rep,
                        every phase time (max and avg over ranks), counts,
                        bytes and messages communicated (total, per rank)
  RESULTS/points.csv    one row per point (medians, min, max over repetitions,
                        speedup and efficiency against the 1x1x1 run)
  RESULTS/refused.csv   every refused run and why
  RESULTS/model.csv     cost model: predicted vs measured per point and phase
  RESULTS/extrapolation.csv  the model on 1..512 nodes
  RESULTS/MODEL.txt     calibration (t_s, t_w), model inputs, and which phases
                        stop scaling
  RESULTS/*.png         speedup.png, efficiency.png, phases.png, comm.png,
                        weak.png, model.png, model_extrapolation.png

Options:
  --refdir DIR              reference outputs (default: DIR/ref of each --raw)
  --reference DATASET=FILE  reference output for one dataset (repeatable)
  --hw-cpus N               hardware threads of the machine (default: from the runs)
  --paper-nodes LIST        node counts for the extrapolation (default 1,2,...,512)
  --paper-node RxT          ranks x threads of one node on paper (default 16x4)
  --paper-dataset NAME      dataset to extrapolate (default: the biggest strong one)
  --no-plots                CSV and MODEL.txt only
  --allow-refused           exit 0 even when runs were refused

Exit status: 0 every run accepted; 3 some run refused (the accepted ones are
still written); 2 bad usage or nothing to collect.
"""
import argparse
import csv
import glob
import hashlib
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import costmodel  # noqa: E402

PHASE_ORDER = costmodel.PHASES
# Phases whose work grows with the input (word list), not the dictionary: in
# the weak sweep only these see a constant work per node.
WORD_PHASES = ['route', 'judge', 'candidates']
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


def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


# --------------------------------------------------------------- reading ----

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
    if os.path.isfile(out) and want is not None:
        got = sha256_file(out)
        if got != want:
            return info, 'output checksum %s differs from reference %s (%s)' % (got[:16], want[:16], ref_path)
    if meta.get('exit_code', 1) != 0:
        return info, 'job failed (exit %s)' % meta.get('exit_code')
    if not os.path.isfile(out):
        return info, 'no output file'
    if want is None:
        return info, 'no reference output for dataset %s' % dataset
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
    return row, None


# ----------------------------------------------------------- aggregation ----

def phase_names(rows):
    seen = []
    for ph in PHASE_ORDER:
        if any(('t_%s_max' % ph) in r for r in rows):
            seen.append(ph)
    for r in rows:
        for k in r:
            if k.startswith('t_') and k.endswith('_max'):
                ph = k[2:-4]
                if ph != 'total' and ph not in seen:
                    seen.append(ph)
    return seen


def point_key(r):
    return (r['kind'], r['dataset'], r['nodes'], r['ranks_per_node'], r['threads'])


def aggregate(rows, phases):
    groups = {}
    for r in rows:
        groups.setdefault(point_key(r), []).append(r)
    points = []
    for key, rs in sorted(groups.items()):
        kind, ds, n, rpn, t = key
        tot = [r.get('t_total_max') for r in rs if r.get('t_total_max') is not None]
        p = {'kind': kind, 'dataset': ds, 'nodes': n, 'ranks_per_node': rpn, 'threads': t,
             'ranks': n * rpn, 'cores': n * rpn * t, 'reps': len(rs),
             'oversubscribed': max(r['oversubscribed'] for r in rs),
             'total_med': med(tot), 'total_min': min(tot) if tot else None, 'total_max': max(tot) if tot else None,
             'wall_med': med([r['wall_seconds'] for r in rs])}
        for ph in phases:
            v = [r.get('t_%s_max' % ph) for r in rs]
            p['%s_med' % ph] = med(v)
            vv = [x for x in v if x is not None]
            p['%s_min' % ph] = min(vv) if vv else None
            p['%s_max' % ph] = max(vv) if vv else None
        for k in ('bytes_per_rank_avg', 'bytes_per_rank_max', 'messages_per_rank_avg', 'messages_per_rank_max',
                  'bytes_sent', 'messages_sent', 'sent_to_other_ranks'):
            v = [r.get(k) for r in rs if r.get(k) is not None]
            p[k + '_med'] = med(v)
            p[k + '_lo'] = min(v) if v else None
            p[k + '_hi'] = max(v) if v else None
        points.append(p)
    # speedup/efficiency: strong against 1x1x1 of the dataset; weak against
    # the same geometry on 1 node.
    by = {(p['kind'], p['dataset'], p['nodes'], p['ranks_per_node'], p['threads']): p for p in points}
    for p in points:
        if p['kind'] == 'weak':
            base_ds = p['dataset'].rsplit('-u', 1)[0] + '-u1'
            b = by.get(('weak', base_ds, 1, p['ranks_per_node'], p['threads']))
            if b and b['total_med'] and p['total_med']:
                p['weak_efficiency'] = b['total_med'] / p['total_med']
                p['weak_efficiency_lo'] = b['total_med'] / p['total_max']
                p['weak_efficiency_hi'] = b['total_med'] / p['total_min']
                bw = sum(b.get('%s_med' % ph) or 0 for ph in WORD_PHASES)
                pw = sum(p.get('%s_med' % ph) or 0 for ph in WORD_PHASES)
                if bw > 0 and pw > 0:
                    p['weak_efficiency_word_phases'] = bw / pw
            continue
        b = by.get((p['kind'], p['dataset'], 1, 1, 1))
        if not (b and b['total_med'] and p['total_med']):
            continue
        p['speedup'] = b['total_med'] / p['total_med']
        p['speedup_lo'] = b['total_med'] / p['total_max']
        p['speedup_hi'] = b['total_med'] / p['total_min']
        p['efficiency'] = p['speedup'] / p['cores']
        p['efficiency_lo'] = p['speedup_lo'] / p['cores']
        p['efficiency_hi'] = p['speedup_hi'] / p['cores']
    return points


def write_csv(path, rows, first=()):
    keys = list(first)
    for r in rows:
        for k in r:
            if k not in keys:
                keys.append(k)
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow({k: fmt(r.get(k)) for k in keys})
    os.replace(tmp, path)


def fmt(v):
    if v is None:
        return ''
    if isinstance(v, float):
        return '%.6g' % v
    return v


# ----------------------------------------------------------------- model ----

def build_workloads(rows, points, phases):
    """dataset -> costmodel.Workload, for strong datasets with a 1x1x1 run."""
    out = {}
    for ds in sorted({p['dataset'] for p in points if p['kind'] == 'strong'}):
        base = [p for p in points if p['dataset'] == ds and p['kind'] == 'strong'
                and (p['nodes'], p['ranks_per_node'], p['threads']) == (1, 1, 1)]
        if not base:
            continue
        b = base[0]
        w = costmodel.Workload(ds)
        w.phases = [ph for ph in phases if b.get('%s_med' % ph) is not None]
        for ph in w.phases:
            w.t1[ph] = b.get('%s_med' % ph) or 0.0
        # A phase the 1-rank run skips (nothing to ship to oneself) still
        # works on p > 1: take twice its 2-rank time as its serial work.
        pair = [p for p in points if p['dataset'] == ds and p['kind'] == 'strong' and p['ranks'] == 2
                and p['threads'] == 1 and not p['oversubscribed']]
        pair.sort(key=lambda p: -p['nodes'])
        w.skipped_on_one = []
        for ph in w.phases:
            t2 = pair[0].get('%s_med' % ph) if pair else None
            if t2 and w.t1[ph] < 0.1 * 2 * t2:
                w.t1[ph] = 2 * t2
                w.skipped_on_one.append(ph)
        two = [p for p in points if p['dataset'] == ds and p['kind'] == 'strong'
               and (p['nodes'], p['ranks_per_node'], p['threads']) == (1, 1, 2) and not p['oversubscribed']]
        for ph in w.phases:
            f = 0.0
            if ph in w.skipped_on_one:
                pass  # the 1-rank runs cannot tell: no thread speed-up assumed
            elif two and two[0].get('%s_med' % ph) and w.t1[ph] > 0:
                s = w.t1[ph] / two[0]['%s_med' % ph]
                f = min(1.0, max(0.0, 2.0 * (1.0 - 1.0 / s)))
            w.f[ph] = f
        rs = [r for r in rows if r['dataset'] == ds and r['kind'] == 'strong']
        r0 = rs[0]
        w.dict_bytes = r0['dictionary_bytes']
        w.input_bytes = r0['input_bytes']
        w.output_bytes = r0['output_bytes']
        w.entries = int(r0.get('dictionary_entries') or 0)
        w.generated = int(r0.get('candidates_generated') or 0)
        if r0.get('batch_bytes'):
            w.batch = int(r0['batch_bytes'])
        if r0.get('filter_bits'):
            w.filter_bits = float(r0['filter_bits'])
        w.words = int(r0.get('words') or 0)
        phis, betas, imbs = [], [], []
        mis = int(r0.get('misspelled') or 0)
        for r in rs:
            p = r['ranks']
            if p < 2 or not r.get('sent_to_other_ranks') or not r.get('candidates_generated'):
                continue
            share = (p - 1) / p
            phis.append(r['sent_to_other_ranks'] / (r['candidates_generated'] * share))
            coll = w.wire_bytes('shuffle') * share + w.wire_bytes('route') * share
            coll += float(r.get('filter_bytes_per_rank') or 0) * share
            coll += (w.output_bytes + 26 * mis) * share
            cand = float(r.get('bytes_sent') or 0) - coll
            if cand > 0:
                betas.append(cand / r['sent_to_other_ranks'])
            if r.get('shard_entries_max') and w.entries:
                imbs.append(r['shard_entries_max'] / (w.entries / p))
        if phis:
            w.phi = med(phis)
        if betas:
            w.beta = max(9.0, med(betas))
        if imbs:
            w.imbalance = med(imbs)
        out[ds] = w
    return out


def model_rows(workloads, points, net, hw_cpus):
    rows = []
    for p in points:
        w = workloads.get(p['dataset'])
        if not w or p['kind'] != 'strong':
            continue
        pred = w.predict(p['ranks'], p['threads'], p['nodes'], net, hw_cpus)
        for ph in w.phases + ['total']:
            if ph == 'total':
                pc = sum(c for c, _ in pred.values())
                pm = sum(m for _, m in pred.values())
            else:
                pc, pm = pred[ph]
            rows.append({'dataset': p['dataset'], 'nodes': p['nodes'], 'ranks_per_node': p['ranks_per_node'],
                         'threads': p['threads'], 'cores': p['cores'], 'oversubscribed': p['oversubscribed'],
                         'phase': ph, 'predicted_compute': pc, 'predicted_comm': pm,
                         'predicted': pc + pm, 'measured_med': p.get('%s_med' % ph),
                         'measured_min': p.get('%s_min' % ph), 'measured_max': p.get('%s_max' % ph)})
    return rows


def extrapolate(w, nets, nodes_list, rpn, threads):
    rows = []
    for net in nets:
        for n in nodes_list:
            p = n * rpn
            pred = w.predict(p, threads, n, net, None)
            for ph, (c, m) in pred.items():
                rows.append({'network': net.name, 'dataset': w.name, 'nodes': n, 'ranks_per_node': rpn,
                             'threads': threads, 'ranks': p, 'cores': p * threads, 'phase': ph,
                             'compute': c, 'comm': m, 'time': c + m})
            rows.append({'network': net.name, 'dataset': w.name, 'nodes': n, 'ranks_per_node': rpn,
                         'threads': threads, 'ranks': p, 'cores': p * threads, 'phase': 'total',
                         'compute': sum(c for c, _ in pred.values()), 'comm': sum(m for _, m in pred.values()),
                         'time': w.total(pred)})
    return rows


def scaling_verdicts(ext_rows, net_name):
    """Per phase: where it stops shrinking and what dominates there."""
    out = []
    rows = [r for r in ext_rows if r['network'] == net_name]
    for ph in list(dict.fromkeys(r['phase'] for r in rows)):
        rs = sorted((r for r in rows if r['phase'] == ph), key=lambda r: r['nodes'])
        if not rs:
            continue
        best = min(rs, key=lambda r: r['time'])
        last = rs[-1]
        first = rs[0]
        if best['nodes'] == last['nodes']:
            verdict = 'keeps shrinking to %d nodes (%.3g s -> %.3g s)' % (last['nodes'], first['time'], last['time'])
        else:
            verdict = ('stops scaling at ~%d nodes (min %.3g s), %.3g s at %d nodes' %
                       (best['nodes'], best['time'], last['time'], last['nodes']))
        dom = 'communication' if last['comm'] > last['compute'] else 'computation'
        out.append('%-11s %s; at %d nodes %.0f%% %s' % (
            ph, verdict, last['nodes'], 100.0 * max(last['comm'], last['compute']) / max(last['time'], 1e-30), dom))
    return out


# ----------------------------------------------------------------- plots ----

def plots(outdir, rows, points, phases, hw_cpus, emulated, host, mrows, ext_rows, nets, verdict_net):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    note = ('Measured on a %d-core machine (%s): points above %d cores (nodes x ranks x threads) are '
            'OVERSUBSCRIBED (shaded / hollow markers)%s.' % (
                hw_cpus, host, hw_cpus, '; emulated Slurm nodes share these cores' if emulated else ''))
    loads = sorted(float(r['loadavg_1min']) for r in rows if r.get('loadavg_1min'))
    if loads:
        note += ('\nLoad average at the start of the runs: %.1f-%.1f (median %.1f) on %d cores: the machine was shared '
                 'with other work.' % (loads[0], loads[-1], statistics.median(loads), hw_cpus))
    geos = sorted({(p['ranks_per_node'], p['threads']) for p in points})
    markers = ['o', 's', '^', 'D', 'v', 'P', 'X', '*']
    gmark = {g: markers[i % len(markers)] for i, g in enumerate(geos)}
    colors = plt.rcParams['axes.prop_cycle'].by_key()['color']
    written = []

    def finish(fig, name):
        fig.text(0.5, 0.005, note, ha='center', va='bottom', fontsize=8, color='darkred')
        h = fig.get_size_inches()[1]
        fig.tight_layout(rect=(0, min(0.2, 0.45 / h), 1, 1))
        path = os.path.join(outdir, name)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    def shade(ax):
        lo, hi = ax.get_xlim()
        if hi > hw_cpus:
            ax.axvspan(hw_cpus + 0.5 if ax.get_xscale() == 'linear' else hw_cpus * 1.2, hi, color='0.88', zorder=0,
                       label='oversubscribed (> %d cores)' % hw_cpus)
            ax.set_xlim(lo, hi)

    strong = sorted({p['dataset'] for p in points if p['kind'] == 'strong'})

    def err(v, lo, hi):
        return [[max(0.0, v - lo)], [max(0.0, hi - v)]]

    # speedup and efficiency vs cores
    for what, ylabel, fname in (('speedup', 'speedup vs 1 rank x 1 thread', 'speedup.png'),
                                ('efficiency', 'parallel efficiency', 'efficiency.png')):
        if not strong:
            break
        fig, axes = plt.subplots(1, len(strong), figsize=(5.5 * len(strong), 4.6), squeeze=False)
        for ax, ds in zip(axes[0], strong):
            pts = [p for p in points if p['dataset'] == ds and p['kind'] == 'strong' and what in p]
            maxc = max([p['cores'] for p in pts] + [2])
            for gi, g in enumerate(geos):
                gp = sorted((p for p in pts if (p['ranks_per_node'], p['threads']) == g), key=lambda p: p['cores'])
                if not gp:
                    continue
                c = colors[gi % len(colors)]
                ax.plot([p['cores'] for p in gp], [p[what] for p in gp], '-', color=c, alpha=0.6)
                for p in gp:
                    ax.errorbar(p['cores'], p[what], yerr=err(p[what], p[what + '_lo'], p[what + '_hi']),
                                fmt=gmark[g], color=c, mfc='white' if p['oversubscribed'] else c, capsize=3,
                                label='%d rank x %d thread per node' % g if p is gp[0] else None)
                    ax.annotate('%dn' % p['nodes'], (p['cores'], p[what]), textcoords='offset points',
                                xytext=(4, 4), fontsize=7, color=c)
            xs = [1, maxc]
            if what == 'speedup':
                ax.plot(xs, xs, 'k:', lw=1, label='ideal')
                ax.plot([1, maxc], [1, min(maxc, hw_cpus)] if maxc <= hw_cpus else [1, hw_cpus], color='0.5', lw=0)
                ax.axhline(hw_cpus, color='darkred', ls='--', lw=0.8, label='%d hardware cores' % hw_cpus)
            else:
                ax.axhline(1.0, color='k', ls=':', lw=1, label='ideal')
                ax.set_ylim(0, max([1.15] + [p['efficiency_hi'] * 1.05 for p in pts]))
            ax.set_xscale('log', base=2)
            ax.set_xlim(0.8, maxc * 1.3)
            shade(ax)
            ax.set_xlabel('cores = nodes x ranks/node x threads/rank')
            ax.set_ylabel(ylabel)
            ax.set_title('strong scaling: %s' % ds)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, loc='upper left' if what == 'speedup' else 'lower left')
        finish(fig, fname)

    # phase breakdown, stacked
    groups = strong + sorted({p['dataset'].rsplit('-u', 1)[0] for p in points if p['kind'] == 'weak'})
    if groups and phases:
        fig, axes = plt.subplots(len(groups), 1, figsize=(max(7, 0.55 * len(points) + 3), 3.6 * len(groups)),
                                 squeeze=False)
        for ax, g in zip(axes[:, 0], groups):
            pts = [p for p in points if (p['kind'] == 'strong' and p['dataset'] == g) or
                   (p['kind'] == 'weak' and p['dataset'].rsplit('-u', 1)[0] == g)]
            pts.sort(key=lambda p: (p['nodes'], p['ranks_per_node'], p['threads']))
            x = list(range(len(pts)))
            bottom = [0.0] * len(pts)
            for i, ph in enumerate(phases):
                v = [p.get('%s_med' % ph) or 0.0 for p in pts]
                ax.bar(x, v, bottom=bottom, color=colors[i % len(colors)], label=ph, width=0.7)
                bottom = [b + vv for b, vv in zip(bottom, v)]
            for xi, p in zip(x, pts):
                if p['total_med'] is not None:
                    ax.errorbar(xi, p['total_med'], yerr=err(p['total_med'], p['total_min'], p['total_max']),
                                fmt='k_', capsize=4, ms=14, label='total (median, min-max)' if xi == 0 else None)
                if p['oversubscribed']:
                    ax.axvspan(xi - 0.45, xi + 0.45, color='0.9', zorder=0)
            ax.set_xticks(x)
            ax.set_xticklabels(['%dn %dx%d%s' % (p['nodes'], p['ranks_per_node'], p['threads'],
                                                 '*' if p['oversubscribed'] else '') for p in pts],
                               rotation=45, ha='right', fontsize=8)
            kind = 'weak' if pts and pts[0]['kind'] == 'weak' else 'strong'
            ax.set_title('%s scaling, %s: phase times (max over ranks, median of reps); * = oversubscribed' % (kind, g),
                         fontsize=9)
            ax.set_ylabel('seconds')
            ax.legend(fontsize=7, ncol=5, loc='upper left')
            ax.grid(axis='y', alpha=0.3)
        axes[-1, 0].set_xlabel('nodes, ranks x threads per node')
        finish(fig, 'phases.png')

    # communication volume per rank
    if points:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.4))
        for i, ds in enumerate(sorted({p['dataset'] for p in points})):
            rs = [r for r in rows if r['dataset'] == ds and r.get('bytes_per_rank_avg') is not None]
            ranks = sorted({r['ranks'] for r in rs})
            for ax, key, lab in ((a1, 'bytes_per_rank', 'bytes'), (a2, 'messages_per_rank', 'messages')):
                ys, lo, hi = [], [], []
                for p in ranks:
                    v = [r[key + '_avg'] for r in rs if r['ranks'] == p]
                    ys.append(med(v))
                    lo.append(min(v))
                    hi.append(max(v))
                if not ranks:
                    continue
                ax.errorbar(ranks, ys, yerr=[[y - l for y, l in zip(ys, lo)], [h - y for y, h in zip(ys, hi)]],
                            fmt='o-', color=colors[i % len(colors)], capsize=3, ms=4, label=ds)
                mx = [med([r[key + '_max'] for r in rs if r['ranks'] == p]) for p in ranks]
                ax.plot(ranks, mx, ':', color=colors[i % len(colors)], lw=1)
        for ax, lab in ((a1, 'bytes sent per rank'), (a2, 'messages sent per rank')):
            ax.set_xscale('log', base=2)
            ax.set_yscale('log')
            ax.set_xlabel('MPI ranks (all nodes)')
            ax.set_ylabel(lab)
            ax.grid(alpha=0.3)
            lo_x, hi_x = ax.get_xlim()
            if hi_x > hw_cpus:
                ax.axvspan(hw_cpus * 1.2, hi_x, color='0.9', zorder=0)
                ax.set_xlim(lo_x, hi_x)
        a1.legend(fontsize=7)
        a1.set_title('bytes sent per rank: mean over ranks (solid, min-max over reps\n'
                     'and geometries), busiest rank (dotted); collectives count their payload', fontsize=8)
        a2.set_title('messages sent per rank (same convention)', fontsize=8)
        finish(fig, 'comm.png')

    # weak scaling
    weak = [p for p in points if p['kind'] == 'weak']
    if weak:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.4))
        for gi, g in enumerate(geos):
            gp = sorted((p for p in weak if (p['ranks_per_node'], p['threads']) == g), key=lambda p: p['nodes'])
            if not gp:
                continue
            c = colors[gi % len(colors)]
            for ax, key in ((a1, 'total'), (a2, 'weak_efficiency')):
                xs = [p['nodes'] for p in gp if p.get(key + '_med' if key == 'total' else key) is not None]
                if key == 'total':
                    ys = [p['total_med'] for p in gp]
                    yl = [[y - p['total_min'] for y, p in zip(ys, gp)], [p['total_max'] - y for y, p in zip(ys, gp)]]
                else:
                    gp2 = [p for p in gp if 'weak_efficiency' in p]
                    xs = [p['nodes'] for p in gp2]
                    ys = [p['weak_efficiency'] for p in gp2]
                    yl = [[max(0, y - p['weak_efficiency_lo']) for y, p in zip(ys, gp2)],
                          [max(0, p['weak_efficiency_hi'] - y) for y, p in zip(ys, gp2)]]
                    gp = gp2 if gp2 else gp
                if not xs:
                    continue
                ax.errorbar(xs, ys, yerr=yl, fmt=gmark[g] + '-', color=c, capsize=3,
                            label='%d rank x %d thread per node%s' % (g + (': whole run' if key != 'total' else '',)))
                for x, y, p in zip(xs, ys, gp):
                    if p['oversubscribed']:
                        ax.plot([x], [y], gmark[g], mfc='white', color=c, ms=9)
                if key != 'total':
                    gw = [p for p in gp if 'weak_efficiency_word_phases' in p]
                    if gw:
                        ax.plot([p['nodes'] for p in gw], [p['weak_efficiency_word_phases'] for p in gw],
                                gmark[g] + '--', color=c, alpha=0.7, mfc='white',
                                label='%d rank x %d thread per node: %s only' % (g + ('+'.join(WORD_PHASES),)))

        a1.set_ylabel('total seconds (median, min-max)')
        a2.set_ylabel('weak efficiency T(1 node) / T(N nodes)')
        a2.axhline(1.0, color='k', ls=':', lw=1)
        a2.set_ylim(0, 1.08 * max([1.2] + [p.get('weak_efficiency_hi', 0) for p in weak] +
                                  [p.get('weak_efficiency_word_phases', 0) for p in weak]))
        base = weak[0]['dataset'].rsplit('-u', 1)[0]
        for ax in (a1, a2):
            ax.set_xscale('log', base=2)
            ax.set_xlabel('nodes (data grows with nodes)')
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        a1.set_title('weak scaling: %s, one unit of input per node, fixed dictionary\n'
                     '(hollow = oversubscribed)' % base, fontsize=9)
        a2.set_title('weak efficiency (dictionary phases do not grow: they strong-scale)', fontsize=9)
        finish(fig, 'weak.png')

    # model: predicted vs measured
    tots = [m for m in mrows if m['phase'] == 'total' and m['measured_med']]
    if tots:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.8))
        dss = sorted({m['dataset'] for m in tots})
        for i, ds in enumerate(dss):
            ms = sorted((m for m in tots if m['dataset'] == ds), key=lambda m: (m['cores'], m['nodes']))
            c = colors[i % len(colors)]
            for m in ms:
                a1.errorbar(m['measured_med'], m['predicted'],
                            xerr=err(m['measured_med'], m['measured_min'], m['measured_max']),
                            fmt='o', color=c, mfc='white' if m['oversubscribed'] else c, capsize=2,
                            label=ds if m is ms[0] else None)
            xs = list(range(len(ms)))
            a2.plot(xs, [m['measured_med'] for m in ms], 'o-', color=c, label='%s measured' % ds)
            a2.plot(xs, [m['predicted'] for m in ms], 's--', color=c, mfc='white', label='%s model' % ds)
            if i == 0:
                a2.set_xticks(xs)
                a2.set_xticklabels(['%dn %dx%d%s' % (m['nodes'], m['ranks_per_node'], m['threads'],
                                                     '*' if m['oversubscribed'] else '') for m in ms],
                                   rotation=45, ha='right', fontsize=8)
        lo = min(min(m['measured_med'], m['predicted']) for m in tots) * 0.8
        hi = max(max(m['measured_med'], m['predicted']) for m in tots) * 1.2
        a1.plot([lo, hi], [lo, hi], 'k:', lw=1, label='predicted = measured')
        a1.set_xscale('log')
        a1.set_yscale('log')
        a1.set_xlabel('measured total seconds (median, min-max)')
        a1.set_ylabel('model total seconds')
        a1.set_title('cost model vs measurement (hollow = oversubscribed)', fontsize=9)
        a1.legend(fontsize=7)
        a1.grid(alpha=0.3)
        a2.set_ylabel('total seconds')
        a2.set_title('per configuration (* = oversubscribed; nodes, ranks x threads per node)', fontsize=9)
        a2.legend(fontsize=7)
        a2.grid(alpha=0.3)
        finish(fig, 'model.png')

    # model on paper: 1..512 nodes
    if ext_rows:
        fig, axes = plt.subplots(1, len(nets), figsize=(6 * len(nets), 4.8), squeeze=False)
        for ax, net in zip(axes[0], nets):
            rs = [r for r in ext_rows if r['network'] == net.name]
            ns = sorted({r['nodes'] for r in rs})
            for i, ph in enumerate(p for p in dict.fromkeys(r['phase'] for r in rs) if p != 'total'):
                ys = [next(r['time'] for r in rs if r['nodes'] == n and r['phase'] == ph) for n in ns]
                ax.plot(ns, ys, '-', color=colors[i % len(colors)], label=ph, lw=1.2)
            tot = [next(r['time'] for r in rs if r['nodes'] == n and r['phase'] == 'total') for n in ns]
            com = [next(r['comm'] for r in rs if r['nodes'] == n and r['phase'] == 'total') for n in ns]
            ax.plot(ns, tot, 'k-', lw=2.2, label='total')
            ax.plot(ns, com, 'k--', lw=1, label='all communication')
            ideal = [tot[0] / n for n in ns]
            ax.plot(ns, ideal, 'k:', lw=1, label='ideal')
            ax.set_xscale('log', base=2)
            ax.set_yscale('log')
            ax.axvspan(64, max(ns), color='#eef', zorder=0)
            r0 = rs[0]
            ax.set_title('%s on %dx%d per node: %s' % (r0['dataset'], r0['ranks_per_node'], r0['threads'],
                                                       net.name), fontsize=8)
            ax.set_xlabel('nodes (shaded: 64-512, on paper only)')
            ax.set_ylabel('predicted seconds')
            ax.grid(alpha=0.3)
            ax.legend(fontsize=6, ncol=2)
        finish(fig, 'model_extrapolation.png')
    return written


# ------------------------------------------------------------------ main ----

def main():
    ap = argparse.ArgumentParser(description='verify, tabulate and plot a spellcheck scaling sweep')
    ap.add_argument('--raw', action='append', required=True, help='sweep directory (repeatable)')
    ap.add_argument('--out', required=True, help='results directory')
    ap.add_argument('--refdir', action='append', default=[])
    ap.add_argument('--reference', action='append', default=[], metavar='DATASET=FILE')
    ap.add_argument('--hw-cpus', type=int, default=0)
    ap.add_argument('--paper-nodes', default='1,2,4,8,16,32,64,128,256,512')
    ap.add_argument('--paper-node', default='16x4')
    ap.add_argument('--paper-dataset', default='')
    ap.add_argument('--no-plots', action='store_true')
    ap.add_argument('--allow-refused', action='store_true')
    args = ap.parse_args()

    refs = Refs()
    for r in args.reference:
        if '=' not in r:
            ap.error('--reference wants DATASET=FILE')
        ds, f = r.split('=', 1)
        refs.files[ds] = f
    for d in args.refdir:
        refs.add_dir(d)
    for raw in args.raw:
        refs.add_dir(os.path.join(raw, 'ref'))

    metas = []
    for raw in args.raw:
        if not os.path.isdir(raw):
            warn('error: %s is not a directory' % raw)
            return 2
        metas += find_runs(raw)
    if not metas:
        warn('error: no runs (*/meta.json) under %s' % ', '.join(args.raw))
        return 2

    rows, refused = [], []
    for m in metas:
        row, reason = check_run(m, refs)
        if reason:
            info = row or {'run': os.path.basename(os.path.dirname(m)), 'dataset': '?'}
            refused.append({'run': info['run'], 'dataset': info['dataset'], 'reason': reason,
                            'dir': os.path.dirname(m)})
            warn('REFUSED %s: %s' % (info['run'], reason))
        else:
            rows.append(row)
    os.makedirs(args.out, exist_ok=True)
    write_csv(os.path.join(args.out, 'refused.csv'), refused, first=('run', 'dataset', 'reason', 'dir'))
    if not rows:
        warn('error: no run was accepted (%d refused)' % len(refused))
        return 3

    phases = phase_names(rows)
    rows.sort(key=lambda r: (r['kind'], r['dataset'], r['nodes'], r['ranks_per_node'], r['threads'], str(r['rep'])))
    first = ['sweep', 'run', 'job_id', 'kind', 'dataset', 'mode', 'rep', 'nodes', 'ranks_per_node', 'threads',
             'ranks', 'cores', 'oversubscribed', 'emulated_nodes', 'hw_cpus', 'launcher', 'bind', 'wall_seconds']
    first += ['t_%s_max' % ph for ph in phases + ['total']] + ['t_%s_avg' % ph for ph in phases + ['total']]
    first += COUNT_KEYS + ['bytes_per_rank_avg', 'bytes_per_rank_min', 'bytes_per_rank_max',
                           'messages_per_rank_avg', 'messages_per_rank_max']
    write_csv(os.path.join(args.out, 'runs.csv'), rows, first=first)
    points = aggregate(rows, phases)
    write_csv(os.path.join(args.out, 'points.csv'), points)

    hw = args.hw_cpus or max(r['hw_cpus'] for r in rows) or os.cpu_count()
    emulated = any(r['emulated_nodes'] for r in rows)
    host = rows[0]['host']

    # cost model
    cc_docs = []
    for raw in args.raw:
        for f in sorted(glob.glob(os.path.join(raw, 'commcost', '*.json'))):
            try:
                cc_docs.append(load_json(f))
            except (OSError, ValueError):
                warn('warning: unreadable %s' % f)
    net = costmodel.Net.from_commcost(cc_docs, 'calibrated here (commcost)')
    model_lines = []
    mrows, ext_rows, nets = [], [], []
    workloads = build_workloads(rows, points, phases)
    if net is None:
        warn('warning: no commcost calibration found: model uses the assumed network only')
    a = costmodel.ASSUMED_NET
    assumed = costmodel.Net(a['ts_intra'], a['tw_intra'], a['ts_inter'], a['tw_inter'], a['name'])
    nets = [n for n in (net, assumed) if n]
    if workloads:
        mrows = model_rows(workloads, points, nets[0], hw)
        write_csv(os.path.join(args.out, 'model.csv'), mrows)
        pds = args.paper_dataset or max(workloads, key=lambda d: workloads[d].generated)
        if pds in workloads:
            rpn, thr = (int(x) for x in args.paper_node.lower().split('x'))
            ns = [int(x) for x in args.paper_nodes.split(',') if x]
            ext_rows = extrapolate(workloads[pds], nets, ns, rpn, thr)
            write_csv(os.path.join(args.out, 'extrapolation.csv'), ext_rows)
        else:
            warn('warning: --paper-dataset %s has no 1x1x1 run' % pds)
        model_lines.append('# Cost model (slurm/costmodel.py), written by slurm/collect.py')
        model_lines.append('')
        for n in nets:
            model_lines.append('network %-45s t_s intra %.3g us, inter %.3g us; t_w intra %.3g ns/B (%.0f MB/s), '
                               'inter %.3g ns/B (%.0f MB/s)' % (
                                   n.name + ':', n.ts_intra * 1e6, n.ts_inter * 1e6, n.tw_intra * 1e9,
                                   1e-6 / n.tw_intra if n.tw_intra else 0, n.tw_inter * 1e9,
                                   1e-6 / n.tw_inter if n.tw_inter else 0))
        model_lines.append('(%d commcost calibration file(s))' % len(cc_docs))
        model_lines.append('')
        for ds, w in sorted(workloads.items()):
            model_lines.append('workload %s: T1 per phase %s' % (ds, ', '.join(
                '%s=%.3gs' % (ph, w.t1.get(ph, 0)) for ph in w.phases)))
            if w.skipped_on_one:
                model_lines.append('  (skipped on 1 rank, serial work taken as 2 x the 2-rank time: %s)' %
                                   ', '.join(w.skipped_on_one))
            model_lines.append('  thread-parallel fraction f: %s' % ', '.join(
                '%s=%.2f' % (ph, w.f.get(ph, 0)) for ph in w.phases))
            model_lines.append('  dictionary %d B (%d entries), input %d B, output %d B, candidates %d, '
                               'filter pass rate of remote candidates %.4f, %.1f B per remote lookup, '
                               'shard imbalance %.3f, batch %d B' % (
                                   w.dict_bytes, w.entries, w.input_bytes, w.output_bytes, w.generated, w.phi,
                                   w.beta, w.imbalance, w.batch))
        tot = [m for m in mrows if m['phase'] == 'total' and m['measured_med']]
        if tot:
            errs = [abs(m['predicted'] - m['measured_med']) / m['measured_med'] for m in tot]
            ok = [e for m, e in zip(tot, errs) if not m['oversubscribed']]
            model_lines.append('')
            model_lines.append('model vs measured total: median |error| %.0f%% over %d points (%.0f%% over the %d '
                               'not oversubscribed)' % (100 * med(errs), len(errs), 100 * (med(ok) or 0), len(ok)))
        if ext_rows:
            for n in nets:
                model_lines.append('')
                model_lines.append('extrapolation, %s, %s per node, %s:' % (pds, args.paper_node, n.name))
                model_lines += ['  ' + v for v in scaling_verdicts(ext_rows, n.name)]
    else:
        model_lines.append('# Cost model: no strong dataset has a 1-node 1x1 run; nothing to model.')
    with open(os.path.join(args.out, 'MODEL.txt'), 'w') as f:
        f.write('\n'.join(model_lines) + '\n')

    written = []
    if not args.no_plots:
        try:
            written = plots(args.out, rows, points, phases, hw, emulated, host, mrows, ext_rows, nets, None)
        except ImportError as e:
            warn('warning: no plots (%s); install python3-matplotlib' % e)

    print('collect: %d run(s) accepted, %d refused; %d point(s); wrote %s' % (
        len(rows), len(refused), len(points), ', '.join(
            os.path.basename(p) for p in ['runs.csv', 'points.csv', 'refused.csv', 'MODEL.txt'] + written)))
    if refused and not args.allow_refused:
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main())
