"""sweep_tables -- the numbers of a scaling sweep (used by collect.py).

From the accepted runs (sweep_verify.check_run rows): points (medians, min and
max over repetitions, speedup and efficiency), the cost model's predictions,
its extrapolation, and the CSV writer. No plotting here.
"""
import csv
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import costmodel  # noqa: E402
from sweep_verify import COUNT_KEYS  # noqa: E402

PHASE_ORDER = costmodel.PHASES
# Phases whose work grows with the input (word list), not the dictionary: in
# the weak sweep only these see a constant work per node.
WORD_PHASES = ['route', 'judge', 'candidates']


def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None



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
        # The all-to-all the measured runs used (their --stats options; runs
        # before --exchange auto became the default went direct).
        w.exchange = r0.get('exchange') or 'direct'
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
        w.lines = mis
        w.distinct = int(r0.get('distinct') or 0)
        if mis > 1 and w.t1.get('report'):
            w.merge_seconds = min(costmodel.SAMPLE_MERGE_SECONDS, w.t1['report'] / mis)
        w.traffic = fit_traffic(rs, w.phases, w.batch)
        if 'candidates' in w.traffic:
            w.beta = w.traffic['candidates'].per_lookup
        out[ds] = w
    return out


def fit_traffic(rows, phases, batch):
    """phase -> costmodel.TrafficFit from the rows' measured traffic (the
    busiest rank's messages and bytes, medians per ranks x threads); a phase
    without traffic columns (older stats files) gets none: the model
    estimates it."""
    fits = {}
    for ph in phases:
        groups = {}
        for r in rows:
            if r['ranks'] > 1 and r.get('traffic_%s_messages_max' % ph) is not None:
                groups.setdefault((r['ranks'], r['threads']), []).append(r)
        samples = []
        for (p, t), rs in sorted(groups.items()):
            messages = med([r['traffic_%s_messages_max' % ph] for r in rs])
            sent = med([r['traffic_%s_bytes_max' % ph] for r in rs])
            lookups = med([r['sent_to_other_ranks'] / p for r in rs if r.get('sent_to_other_ranks')])
            samples.append((p, t, messages, sent, lookups or 0.0))
        fit = costmodel.fit_traffic(costmodel.TRAFFIC_PATTERN.get(ph, 'fixed'), samples, batch)
        if fit:
            fits[ph] = fit
    return fits


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
            pred = w.predict(p, threads, n, net, None, costmodel.PROGRAM_EXCHANGE)
            for ph, (c, m) in pred.items():
                rows.append({'network': net.name, 'dataset': w.name, 'nodes': n, 'ranks_per_node': rpn,
                             'threads': threads, 'ranks': p, 'cores': p * threads, 'phase': ph,
                             'compute': c, 'comm': m, 'time': c + m})
                if ph == 'report':
                    rows[-1]['sample_sort'] = w.sample_sort(p)
            rows.append({'network': net.name, 'dataset': w.name, 'nodes': n, 'ranks_per_node': rpn,
                         'threads': threads, 'ranks': p, 'cores': p * threads, 'phase': 'total',
                         'compute': sum(c for c, _ in pred.values()), 'comm': sum(m for _, m in pred.values()),
                         'time': w.total(pred)})
    return rows


COLLECTIONS = [('1 GB', 1e9), ('10 GB', 1e10), ('1 TB', 1e12)]
# The targets of issue 10: (collection, nodes) where the predicted parallel
# efficiency against one node should be at least 0.8.
EFFICIENCY_TARGETS = [('1 GB', 64), ('1 TB', 512)]


def heaps_laws(collections):
    """{'distinct': (K, beta), 'misspelled': (K, beta)} over collections of
    several sizes (dicts with words, distinct, misspelled), or None."""
    d = costmodel.fit_heaps(collections, 'distinct')
    m = costmodel.fit_heaps(collections, 'misspelled')
    return {'distinct': d, 'misspelled': m} if d and m else None


def collections_from_stats(docs):
    """Parsed --stats files of document runs -> collections for heaps_laws."""
    out = []
    for d in docs:
        c = d.get('counts') or {}
        if c.get('words') and c.get('distinct') and c.get('misspelled'):
            out.append({'bytes': int(c.get('input_bytes', 0)), 'words': int(c['words']),
                        'distinct': int(c['distinct']), 'misspelled': int(c['misspelled'])})
    return out


def extrapolate_collections(w, nets, heaps, nodes_list, rpn, threads, collections=COLLECTIONS):
    """The document workload w scaled to each collection size (Workload.scaled
    with the Heaps exponents), on nodes_list nodes of rpn x threads; total rows
    carry the parallel efficiency against the first node count."""
    rows = []
    for label, size in collections:
        factor = size / w.input_bytes
        ws = w.scaled(factor, heaps['distinct'][1], heaps['misspelled'][1], name='%s as %s' % (w.name, label))
        rs = extrapolate(ws, nets, nodes_list, rpn, threads)
        for r in rs:
            r.update({'collection': label, 'collection_bytes': size, 'words': ws.words, 'distinct': ws.distinct,
                      'misspelled': ws.lines})
        for net in nets:
            tot = sorted((r for r in rs if r['network'] == net.name and r['phase'] == 'total'),
                         key=lambda r: r['nodes'])
            for r in tot:
                r['efficiency'] = tot[0]['time'] * tot[0]['nodes'] / (r['time'] * r['nodes'])
        rows += rs
    return rows


def target_verdicts(coll_rows, net_name, targets=EFFICIENCY_TARGETS):
    """MODEL.txt lines: does each efficiency target hold; if not, the phase
    that loses most time against ideal scaling, and what it spends it on."""
    out = []
    for label, nodes in targets:
        rs = [r for r in coll_rows if r['network'] == net_name and r['collection'] == label]
        tot = [r for r in rs if r['phase'] == 'total' and r['nodes'] == nodes]
        if not tot:
            out.append('%s at %d nodes: not extrapolated' % (label, nodes))
            continue
        e = tot[0]['efficiency']
        line = '%s at %d nodes: predicted efficiency %.0f%% (%.4g s) -> target (>= 80%%) %s' % (
            label, nodes, 100 * e, tot[0]['time'], 'HOLDS' if e >= 0.8 else 'MISSED')
        base = min(r['nodes'] for r in rs)
        losses = []
        for ph in dict.fromkeys(r['phase'] for r in rs if r['phase'] != 'total'):
            at = next(r for r in rs if r['phase'] == ph and r['nodes'] == nodes)
            b = next(r for r in rs if r['phase'] == ph and r['nodes'] == base)
            losses.append((at['time'] - b['time'] * base / nodes, ph, at))
        losses.sort(reverse=True)
        worst = losses[0]
        if worst[0] > 0:
            at = worst[2]
            line += ('; most time lost against ideal: %s (+%.3g s: compute %.3g s, communication %.3g s)' % (
                worst[1], worst[0], at['compute'], at['comm']))
            if at.get('sample_sort'):
                line += (' [of its compute, %.3g s is merging the %d x %d samples up the tree to rank 0]' % (
                    at['sample_sort'], at['ranks'], costmodel.sample_count(at['ranks'])))
            if len(losses) > 1 and losses[1][0] > 0:
                line += ', then %s (+%.3g s)' % (losses[1][1], losses[1][0])
            base_total = next(r for r in rs if r['phase'] == 'total' and r['nodes'] == base)['time']
            line += '; without that loss %.0f%%' % (100 * base_total * base / (nodes * (tot[0]['time'] - worst[0])))
        out.append(line)
    return out


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


def run_columns(phases):
    """The leading columns of runs.csv, in order (others follow as they come)."""
    cols = ['sweep', 'run', 'job_id', 'kind', 'dataset', 'mode', 'rep', 'nodes', 'ranks_per_node', 'threads',
            'ranks', 'cores', 'oversubscribed', 'emulated_nodes', 'hw_cpus', 'launcher', 'bind', 'wall_seconds']
    cols += ['t_%s_max' % ph for ph in phases + ['total']] + ['t_%s_avg' % ph for ph in phases + ['total']]
    cols += COUNT_KEYS + ['bytes_per_rank_avg', 'bytes_per_rank_min', 'bytes_per_rank_max',
                          'messages_per_rank_avg', 'messages_per_rank_max']
    return cols


def model_text(workloads, nets, calibration_files, mrows, ext_rows, paper_dataset, paper_node, coll=None):
    """The lines of MODEL.txt: networks, workloads, model error, where phases
    stop scaling; coll: (workload name, heaps laws, their source, rows) of
    the collection extrapolation."""
    model_lines = []
    model_lines.append('# Cost model (slurm/costmodel.py), written by slurm/collect.py')
    model_lines.append('')
    for n in nets:
        model_lines.append('network %-45s t_s intra %.3g us, inter %.3g us; t_w intra %.3g ns/B (%.0f MB/s), '
                           'inter %.3g ns/B (%.0f MB/s)' % (
                               n.name + ':', n.ts_intra * 1e6, n.ts_inter * 1e6, n.tw_intra * 1e9,
                               1e-6 / n.tw_intra if n.tw_intra else 0, n.tw_inter * 1e9,
                               1e-6 / n.tw_inter if n.tw_inter else 0))
    model_lines.append('(%d commcost calibration file(s))' % calibration_files)
    model_lines.append('assumed for both: the ranks of a node share one link (off-node bytes cost ranks per node '
                       'x t_w), no overlap of communication with computation, every peer equally loaded; the '
                       'InfiniBand-class values are typical HDR figures (one 100 Gb/s link per node, ~1.5 us MPI '
                       'start-up), not a measured cluster')
    model_lines.append("all-to-alls (shuffle, route, the report's lines): the measured points as their runs went "
                       '(--exchange %s); the extrapolation as the program ships, --exchange %s (two levels from %d '
                       'ranks on 2+ nodes while the start-ups saved outweigh one more copy inside the node); the '
                       "report's gather and broadcast as trees (ceil(log2 p) start-ups)" % (
                           '/'.join(sorted({w.exchange for w in workloads.values()})) or 'direct',
                           costmodel.PROGRAM_EXCHANGE, costmodel.TWO_LEVEL_FROM_RANKS))
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
        model_lines.append('  report: p x s samples (s = %d up to %d ranks, then %d/p, at least %d) merged up a '
                           'binomial tree to rank 0, about 2 p s keys on the critical path at %.3g s a key '
                           '(bench/splitter_bench, or the 1-rank report time / L if smaller)' % (
                               costmodel.SAMPLES_PER_RANK, costmodel.SAMPLE_BUDGET // costmodel.SAMPLES_PER_RANK,
                               costmodel.SAMPLE_BUDGET, costmodel.FEWEST_SAMPLES_PER_RANK, w.merge_seconds))
        measured = w.measured_phases()
        estimated = [ph for ph in w.phases if ph not in measured]
        model_lines.append('  communication from measured traffic (--stats phase_traffic): %s; estimated: %s' % (
            ', '.join(measured) or 'none', ', '.join(estimated) or 'none'))
        for ph in measured:
            model_lines.append('    %-10s %s' % (ph, w.traffic[ph].describe()))
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
            model_lines.append('extrapolation, %s, %s per node, %s:' % (paper_dataset, paper_node, n.name))
            model_lines += ['  ' + v for v in scaling_verdicts(ext_rows, n.name)]
    if coll:
        model_lines += collection_text(nets, paper_node, *coll)
    return model_lines


def collection_text(nets, paper_node, wname, heaps, source, rows):
    lines = ['', 'collections of 1 GB, 10 GB and 1 TB, from the document workload %s, %s per node:' % (
        wname, paper_node)]
    if not rows:
        lines.append('  not extrapolated: %s' % source)
        return lines
    lines.append("  Heaps' law V = K n^beta (n tokens) from %s: distinct words K=%.4g beta=%.3f, "
                 'misspelled distinct words K=%.4g beta=%.3f' % (
                     source, heaps['distinct'][0], heaps['distinct'][1], heaps['misspelled'][0],
                     heaps['misspelled'][1]))
    lines.append('  ingest and input bytes grow with the collection; route, judge with its distinct words; '
                 'candidates, report with its misspelled distinct words (at most its distinct words); read, '
                 'shuffle, index, filter (the dictionary) stay as measured. Efficiency = T(1 node) / (nodes x '
                 'T(nodes)).')
    for label, size in COLLECTIONS:
        r = next(r for r in rows if r['collection'] == label)
        lines.append('  %s: %.3g tokens, %.3g distinct words, %.3g misspelled' % (
            label, r['words'], r['distinct'], r['misspelled']))
    for n in nets:
        lines.append('  %s:' % n.name)
        for label, _ in COLLECTIONS:
            tot = sorted((r for r in rows if r['network'] == n.name and r['collection'] == label and
                          r['phase'] == 'total'), key=lambda r: r['nodes'])
            lines.append('    %-6s %s' % (label, ', '.join('%d: %.3gs %.0f%%' % (
                r['nodes'], r['time'], 100 * r['efficiency']) for r in tot)))
        lines += ['    ' + v for v in target_verdicts(rows, n.name)]
    return lines
