#!/usr/bin/env python3
"""collect.py -- verify, tabulate and plot a spellcheck scaling sweep.

    collect.py --raw DIR [--raw DIR ...] --out RESULTS [options]

Reads every run of the sweep(s) in DIR (DIR/runs/*/meta.json + stats.json, as
written by slurm/spellcheck.sbatch), checks each run's output against the
reference output of its dataset (DIR/ref/<dataset>.txt, written by the sweep's
reference job; or --reference DATASET=FILE), and REFUSES to record a run whose
output checksum differs, whose job failed, or whose stats do not match the
run (wrong rank/thread count, ranks != nodes x ranks per node, misspelled
count != output lines). Accepted runs go to:

  RESULTS/runs.csv      one row per run: nodes, ranks, threads, dataset, rep,
                        every phase time (max and avg over ranks), counts,
                        bytes and messages communicated (total, per rank)
  RESULTS/points.csv    one row per point (medians, min, max over repetitions,
                        speedup and efficiency against the 1x1x1 run)
  RESULTS/refused.csv   every refused run and why
  RESULTS/model.csv     cost model: predicted vs measured per point and phase
  RESULTS/extrapolation.csv  the model on 1..512 nodes: the paper dataset as
                        measured (collection "as measured") and the document
                        workload scaled to 1 GB, 10 GB, 1 TB collections,
                        with the parallel efficiency against one node
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
  --collection-dataset NAME document dataset scaled to 1 GB, 10 GB and 1 TB
                            collections (default: the biggest strong one in
                            document mode)
  --collection-stats FILE   --stats JSON of a document run on a collection
                            (repeatable, 2 or more sizes): fits Heaps' law
                            (default: costmodel.MEASURED_COLLECTIONS)
  --no-plots                CSV and MODEL.txt only
  --allow-refused           exit 0 even when runs were refused

Which runs count is decided in sweep_verify.py, the numbers in sweep_tables.py,
the figures in sweep_plots.py; this file is the command line.

Exit status: 0 every run accepted; 3 some run refused (the accepted ones are
still written); 2 bad usage or nothing to collect.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import costmodel  # noqa: E402
from sweep_plots import plots  # noqa: E402
from sweep_tables import (aggregate, build_workloads, collections_from_stats, extrapolate,  # noqa: E402
                          extrapolate_collections, heaps_laws, model_rows, model_text, phase_names, run_columns,
                          write_csv)
from sweep_verify import Refs, check_run, find_runs, load_json, warn  # noqa: E402


# ------------------------------------------------------------------ main ----

def collection_model(args, workloads, nets, ns, rpn, thr):
    """-> (workload name, Heaps laws, their source, extrapolation rows) of
    the document workload scaled to the collection sizes; rows empty (and
    the source saying why) when there is none."""
    docs = [d for d, w in workloads.items() if 'ingest' in w.phases and w.input_bytes]
    name = args.collection_dataset or (max(docs, key=lambda d: workloads[d].input_bytes) if docs else '')
    if name not in workloads or name not in docs:
        return name, None, 'no document workload with a 1x1x1 run%s' % (' named ' + name if name else ''), []
    if args.collection_stats:
        colls = collections_from_stats([load_json(f) for f in args.collection_stats])
        source = ', '.join(os.path.basename(f) for f in args.collection_stats)
    else:
        colls = costmodel.MEASURED_COLLECTIONS
        source = ', '.join(c['name'] for c in colls) + ' (costmodel.MEASURED_COLLECTIONS)'
    heaps = heaps_laws(colls)
    if not heaps:
        return name, None, "fewer than 2 collections to fit Heaps' law on", []
    return name, heaps, source, extrapolate_collections(workloads[name], nets, heaps, ns, rpn, thr)


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
    ap.add_argument('--collection-dataset', default='')
    ap.add_argument('--collection-stats', action='append', default=[])
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
    write_csv(os.path.join(args.out, 'runs.csv'), rows, first=run_columns(phases))
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
    mrows, ext_rows = [], []
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
        rpn, thr = (int(x) for x in args.paper_node.lower().split('x'))
        ns = [int(x) for x in args.paper_nodes.split(',') if x]
        if pds in workloads:
            ext_rows = extrapolate(workloads[pds], nets, ns, rpn, thr)
            for r in ext_rows:
                r['collection'] = 'as measured'
        else:
            warn('warning: --paper-dataset %s has no 1x1x1 run' % pds)
        coll = collection_model(args, workloads, nets, ns, rpn, thr)
        write_csv(os.path.join(args.out, 'extrapolation.csv'), ext_rows + coll[3],
                  first=('network', 'collection', 'collection_bytes', 'dataset', 'nodes', 'ranks_per_node',
                         'threads', 'ranks', 'cores', 'phase', 'compute', 'comm', 'time', 'efficiency'))
        model_lines = model_text(workloads, nets, len(cc_docs), mrows, ext_rows, pds, args.paper_node, coll)
        ext_rows = ext_rows + coll[3]
    else:
        model_lines = ['# Cost model: no strong dataset has a 1-node 1x1 run; nothing to model.']
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
