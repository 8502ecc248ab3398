"""pytest cases for the sweep collector (slurm/collect.py, sweep_verify.py,
sweep_tables.py): which runs are accepted and which refused, and the numbers
written for the accepted ones. Each case builds a miniature sweep directory
(ref/<dataset>.txt, runs/<run>/meta.json + stats.json + output.txt) as
slurm/spellcheck.sbatch and slurm/scaling write it.

    python3 -m pytest tests/slurm/collect_test.py
"""
import csv
import json
import os
import subprocess
import sys

import pytest

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SLURM = os.path.join(REPO, 'slurm')
sys.path.insert(0, SLURM)

import costmodel  # noqa: E402
import sweep_tables  # noqa: E402
import sweep_verify  # noqa: E402

DATASET = 'tiny'
OUTPUT = b'qzxw: \nTeh:  Tea Ted The \n'


def make_run(raw, name, *, nodes=1, rpn=1, threads=1, ranks=None, exit_code=0, output=OUTPUT,
             stats_ranks=None, stats_threads=None, misspelled=None, total=1.0, kind='strong', traffic=None):
    """One run directory as spellcheck.sbatch leaves it; -> its meta.json path."""
    run = os.path.join(raw, 'runs', name)
    os.makedirs(run)
    ranks = nodes * rpn if ranks is None else ranks
    meta = {'job_id': '1', 'name': name, 'host': 'node1', 'nodes': nodes, 'ranks_per_node': rpn,
            'threads': threads, 'ranks': ranks, 'cores': ranks * threads, 'hw_cpus': 2,
            'oversubscribed': False, 'emulated_nodes': True, 'launcher': 'srun', 'exit_code': exit_code,
            'wall_seconds': total + 0.5, 'mode': 'words', 'dictionary': '', 'inputs': [],
            'labels': {'sweep': 's', 'kind': kind, 'dataset': DATASET, 'rep': '1'}}
    with open(os.path.join(run, 'meta.json'), 'w') as f:
        json.dump(meta, f)
    if output is not None:
        with open(os.path.join(run, 'output.txt'), 'wb') as f:
            f.write(output)
    lines = OUTPUT.count(b'\n')
    stats = {'ranks': ranks if stats_ranks is None else stats_ranks,
             'threads': threads if stats_threads is None else stats_threads,
             'counts': {'misspelled': lines if misspelled is None else misspelled, 'words': 3},
             'phases': {'read': {'max': total / 2, 'avg': total / 2}, 'total': {'max': total, 'avg': total}},
             'per_rank': [{'bytes_sent': 100, 'messages_sent': 2}] * ranks}
    if traffic is not None:  # per rank: {phase: (messages, bytes)}, as --stats phase_traffic
        def entry(m, b):
            return {'messages_sent': m, 'bytes_sent': b, 'messages_received': m, 'bytes_received': b}
        stats['per_rank'] = [{'bytes_sent': 100, 'messages_sent': 2,
                              'phase_traffic': {ph: entry(*v) for ph, v in t.items()}} for t in traffic]
        stats['phases'].update({ph: {'max': total / 4, 'avg': total / 4} for ph in traffic[0]})
        stats['phase_traffic'] = {ph: entry(sum(t[ph][0] for t in traffic), sum(t[ph][1] for t in traffic))
                                  for ph in traffic[0]}
    with open(os.path.join(run, 'stats.json'), 'w') as f:
        json.dump(stats, f)
    return os.path.join(run, 'meta.json')


@pytest.fixture
def raw(tmp_path):
    """A sweep directory with the reference output of DATASET."""
    os.makedirs(tmp_path / 'raw' / 'ref')
    (tmp_path / 'raw' / 'ref' / (DATASET + '.txt')).write_bytes(OUTPUT)
    return str(tmp_path / 'raw')


def refs_of(raw):
    refs = sweep_verify.Refs()
    refs.add_dir(os.path.join(raw, 'ref'))
    return refs


def check(raw, **run):
    return sweep_verify.check_run(make_run(raw, 'r', **run), refs_of(raw))


def test_accepted_run_becomes_a_row(raw):
    row, reason = check(raw, nodes=2, rpn=2, threads=3)
    assert reason is None
    assert (row['nodes'], row['ranks_per_node'], row['threads'], row['ranks'], row['cores']) == (2, 2, 3, 4, 12)
    assert row['output_sha256'] == sweep_verify.sha256_file(os.path.join(raw, 'ref', DATASET + '.txt'))
    assert row['output_bytes'] == len(OUTPUT)
    assert row['t_total_max'] == 1.0 and row['bytes_per_rank_avg'] == 100


def test_refused_wrong_checksum_same_size(raw):
    wrong = b'X' + OUTPUT[1:]
    _, reason = check(raw, output=wrong)
    assert reason.startswith('output checksum ')


def test_refused_wrong_checksum_even_when_the_job_failed(raw):
    _, reason = check(raw, output=OUTPUT + b'extra: \n', exit_code=1)
    assert reason.startswith('output checksum ')


def test_refused_failed_job(raw):
    _, reason = check(raw, exit_code=137)
    assert reason == 'job failed (exit 137)'


def test_refused_failed_job_without_output(raw):
    _, reason = check(raw, exit_code=1, output=None)
    assert reason == 'job failed (exit 1)'


def test_refused_missing_output(raw):
    _, reason = check(raw, output=None)
    assert reason == 'no output file'


def test_refused_without_reference(raw):
    os.remove(os.path.join(raw, 'ref', DATASET + '.txt'))
    _, reason = check(raw)
    assert reason == 'no reference output for dataset %s' % DATASET


@pytest.mark.parametrize('run, why', [
    (dict(nodes=2, rpn=2, ranks=3), 'inconsistent geometry: 3 ranks on 2 nodes x 2 ranks per node'),
    (dict(nodes=1, rpn=2, stats_ranks=1), 'stats say 1 ranks, the job ran 2'),
    (dict(threads=2, stats_threads=1), 'stats say 1 threads, the job asked for 2'),
    (dict(misspelled=5), 'stats count 5 misspelled words, the output has 2 lines'),
])
def test_refused_inconsistent_geometry_or_counts(raw, run, why):
    _, reason = check(raw, **run)
    assert reason == why


def test_refused_unreadable_meta(raw):
    meta = make_run(raw, 'r')
    with open(meta, 'w') as f:
        f.write('{not json')
    row, reason = sweep_verify.check_run(meta, refs_of(raw))
    assert row is None and reason.startswith('unreadable meta.json')


def test_points_take_medians_and_speedup_against_one_core(raw):
    rows = []
    for i, (rpn, total) in enumerate([(1, 4.0), (1, 6.0), (1, 5.0), (2, 2.0), (2, 3.0), (2, 2.5)]):
        row, reason = sweep_verify.check_run(make_run(raw, 'r%d' % i, rpn=rpn, total=total), refs_of(raw))
        assert reason is None
        rows.append(row)
    points = sweep_tables.aggregate(rows, sweep_tables.phase_names(rows))
    one, two = sorted(points, key=lambda p: p['ranks'])
    assert (one['reps'], one['total_med'], one['total_min'], one['total_max']) == (3, 5.0, 4.0, 6.0)
    assert two['total_med'] == 2.5 and two['read_med'] == 1.25
    assert two['speedup'] == pytest.approx(2.0) and two['efficiency'] == pytest.approx(1.0)
    assert two['speedup_lo'] == pytest.approx(5.0 / 3.0) and two['speedup_hi'] == pytest.approx(2.5)


def collect(*args):
    return subprocess.run([sys.executable, os.path.join(SLURM, 'collect.py'), *args],
                          capture_output=True, text=True, timeout=120)


def read_csv(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def test_command_line_records_good_runs_and_refuses_bad_ones(raw, tmp_path):
    make_run(raw, 'good1')
    make_run(raw, 'good2', rpn=2, total=0.6)
    make_run(raw, 'corrupt', output=b'Y' + OUTPUT[1:])
    out = str(tmp_path / 'results')
    p = collect('--raw', raw, '--out', out, '--no-plots')
    assert p.returncode == 3, p.stderr
    assert 'REFUSED corrupt: output checksum' in p.stderr
    assert sorted(r['run'] for r in read_csv(os.path.join(out, 'runs.csv'))) == ['good1', 'good2']
    assert [r['run'] for r in read_csv(os.path.join(out, 'refused.csv'))] == ['corrupt']
    points = read_csv(os.path.join(out, 'points.csv'))
    assert [(p['ranks'], p['speedup']) for p in points] == [('1', '1'), ('2', '1.66667')]
    assert os.path.isfile(os.path.join(out, 'MODEL.txt'))
    assert collect('--raw', raw, '--out', out, '--no-plots', '--allow-refused').returncode == 0


def test_command_line_all_accepted_exits_0(raw, tmp_path):
    make_run(raw, 'good')
    assert collect('--raw', raw, '--out', str(tmp_path / 'results'), '--no-plots').returncode == 0


def test_command_line_nothing_to_collect_exits_2(tmp_path):
    os.makedirs(tmp_path / 'empty')
    p = collect('--raw', str(tmp_path / 'empty'), '--out', str(tmp_path / 'results'))
    assert p.returncode == 2 and 'no runs' in p.stderr


# ------------------------------------------------ measured traffic, model ----

def test_traffic_carried_from_stats_into_rows(raw):
    traffic = [{'route': (3, 1000), 'report': (5, 70)}, {'route': (4, 900), 'report': (2, 30)}]
    row, reason = check(raw, rpn=2, traffic=traffic)
    assert reason is None
    assert (row['traffic_route_messages_max'], row['traffic_route_bytes_max']) == (4, 1000)
    assert (row['traffic_route_messages_total'], row['traffic_route_bytes_total']) == (7, 1900)
    assert (row['traffic_report_messages_max'], row['traffic_report_bytes_max'],
            row['traffic_report_bytes_total']) == (5, 70, 100)


def test_rows_without_traffic_have_no_traffic_columns(raw):
    row, reason = check(raw, rpn=2)
    assert reason is None
    assert not [k for k in row if k.startswith('traffic_')]


def synthetic(fit, ps, t=1, lookups=0.0, batch=65536):
    """(p, t, messages, bytes, lookups) points that follow fit exactly."""
    out = []
    for p in ps:
        b = fit.counted_bytes(p, lookups)
        out.append((p, t, fit.messages(p, t, b, batch), b, lookups))
    return out


@pytest.mark.parametrize('pattern, params', [
    ('alltoall', dict(a=2.0, b=1.0, B=3.0e6, gamma=1.0)),
    ('alltoall', dict(a=2.0, b=0.0, B=2.4e6, gamma=0.6)),     # document route: Heaps, not 1/p
    ('allgather', dict(a=1.0, b=4.0, B=1.0e6, C=2.0e6)),
    ('sort', dict(a=4.0, b=4.0, B=1.5e6, C=1500.0)),
])
def test_traffic_fit_recovers_known_parameters(pattern, params):
    known = costmodel.TrafficFit(pattern, **params)
    fit = costmodel.fit_traffic(pattern, synthetic(known, [2, 4, 8, 16]))
    for k, v in params.items():
        assert getattr(fit, k) == pytest.approx(v, rel=1e-6, abs=1e-6), k
    assert fit.points == 4


def test_traffic_fit_of_lookup_batches():
    known = costmodel.TrafficFit('lookup', a=2.0, b=1.0, per_lookup=20.0)
    points = []
    for p, t in [(2, 1), (4, 2), (8, 1), (16, 2)]:
        points += synthetic(known, [p], t=t, lookups=1e5)
    fit = costmodel.fit_traffic('lookup', points)
    assert (fit.a, fit.b, fit.per_lookup) == (pytest.approx(2.0), pytest.approx(1.0), pytest.approx(20.0))
    # more bytes than a batch holds: full batches go at once
    assert fit.messages(4, 1, 10 * 65536) == pytest.approx(2 * 3 + 1 + 10)


def test_sort_fit_with_few_rank_counts_takes_the_sample_bytes_as_given():
    known = costmodel.TrafficFit('sort', a=4.0, b=4.0, B=1.5e6, C=999.0)
    fit = costmodel.fit_traffic('sort', synthetic(known, [2, 4]), sample_bytes=999.0)
    assert (fit.B, fit.C) == (pytest.approx(1.5e6), 999.0)
    # on the wire: the p*s samples gathered on rank 0 (s = 64 up to 256
    # ranks) and the p-1 splitters broadcast once per rank, not p-1 times
    # from rank 0
    assert fit.wire_bytes(64) == pytest.approx(1.5e6 * 63 / 64 ** 2 + 999.0 * 64 * 65)
    # past 256 ranks fewer samples per rank: 16384/p, at least 16
    assert fit.wire_bytes(1024) == pytest.approx(1.5e6 * 1023 / 1024 ** 2 + 999.0 * 1024 * 17)


def test_sample_count_follows_the_program():
    assert [costmodel.sample_count(p) for p in (1, 2, 256, 512, 1024, 8192)] == [64, 64, 64, 32, 16, 16]


def test_the_samples_merge_stops_growing_faster_than_p_past_the_budget():
    w = costmodel.Workload('w')
    w.lines = 10 ** 9
    # 16 samples a rank from 1024 ranks on: the merge grows as p only
    assert w.samples(256) == 256 * 64
    assert w.samples(1024) == 1024 * 16
    assert w.sample_sort(8192) < 0.05
    # merged up a tree: about 2n keys on the critical path, linear in n
    assert w.sample_sort(8192) == pytest.approx(costmodel.SAMPLE_MERGE_SECONDS * 2 * 8192 * 16)


def workload(**t1):
    w = costmodel.Workload('w')
    w.phases = list(t1)
    w.t1 = dict(t1)
    w.f = {ph: 0.0 for ph in t1}
    w.dict_bytes, w.entries, w.input_bytes, w.words = 10 ** 7, 10 ** 6, 10 ** 7, 10 ** 6
    w.output_bytes, w.lines, w.generated, w.phi = 10 ** 6, 10 ** 4, 10 ** 8, 0.01
    return w


NET = costmodel.Net(1e-6, 1e-10, 2e-6, 2e-10, 'test')


def test_model_uses_measured_traffic_and_falls_back_to_the_estimate():
    w = workload(route=1.0)
    estimated = w.predict(8, 1, 8, NET)['route'][1]
    ts, tw = NET.mix(8, 1)
    assert estimated == pytest.approx(3 * ts + (7 + 3) * ts + tw * w.wire_bytes('route') / 8 * 7 / 8)
    w.traffic['route'] = costmodel.TrafficFit('alltoall', a=2.0, b=0.0, B=1e5, gamma=1.0)
    measured = w.predict(8, 1, 8, NET)['route'][1]
    assert measured == pytest.approx(3 * ts + 14 * ts + tw * 1e5 * 7 / 64)
    assert w.measured_phases() == ['route']


def test_two_level_choice_mirrors_the_program():
    # node_exchange_test.cpp checks the same numbers on use_two_level().
    assert not costmodel.two_level('auto', 8, 4, 2, 0)                   # fewer than 16 ranks
    assert costmodel.two_level('auto', 16, 4, 4, 134000)                  # 9 start-ups saved
    assert not costmodel.two_level('auto', 16, 4, 4, 136000)
    assert costmodel.two_level('auto', 1024, 64, 16, 14000000)            # 945 saved
    assert not costmodel.two_level('auto', 1024, 64, 16, 14400000)
    assert not costmodel.two_level('auto', 16, 16, 1, 0)                  # one rank a node
    assert not costmodel.two_level('direct', 1024, 64, 16, 0)
    assert costmodel.two_level('two-level', 8, 4, 2, 1 << 40)


def test_all_to_all_in_two_levels_and_collectives_as_trees():
    w = workload(route=1.0, report=1.0)
    w.traffic['route'] = costmodel.TrafficFit('alltoall', a=2.0, b=0.0, B=1e5, gamma=1.0)
    w.traffic['report'] = costmodel.TrafficFit('sort', a=4.0, b=4.0, B=2e6, C=24.0)
    p, nodes, rpn = 64, 4, 16
    ts, tw = NET.mix(p, rpn)
    lg = costmodel.lg(p)
    route_bytes = 1e5 * (p - 1) / p ** 2
    direct = w.predict(p, 1, nodes, NET, exchange='direct')
    assert direct['route'][1] == pytest.approx(lg * ts + 2 * (p - 1) * ts + tw * route_bytes)
    auto = w.predict(p, 1, nodes, NET, exchange='auto')
    two = 2 * (15 * NET.ts_intra + 3 * NET.ts_inter)
    assert auto['route'][1] == pytest.approx(lg * ts + two + tw * route_bytes + NET.tw_intra * route_bytes)
    assert auto['route'][1] < direct['route'][1]
    # The report: its all-to-all as the exchange goes, gather and broadcast
    # as trees (2 x log2 p), not as the 2 (p-1) the wrappers count at rank 0.
    fit = w.traffic['report']
    wire = fit.wire_bytes(p)
    assert direct['report'][1] == pytest.approx(lg * ts + (2 * lg + 4) * ts + 2 * (p - 1) * ts + tw * wire)
    lines = 2e6 * (p - 1) / p ** 2
    assert auto['report'][1] == pytest.approx(lg * ts + (2 * lg + 4) * ts + two + tw * wire + NET.tw_intra * lines)
    # The measured runs' exchange is the default.
    w.exchange = 'auto'
    assert w.predict(p, 1, nodes, NET) == auto


def test_filter_collectives_in_two_levels_cross_each_node_link_once():
    w = workload(filter=1.0)
    w.traffic['filter'] = costmodel.TrafficFit('allgather', a=1.0, b=4.0, B=1e6, C=2e6)
    p, nodes, rpn = 64, 4, 16
    ts, tw = NET.mix(p, rpn)
    lg = costmodel.lg(p)
    direct = w.predict(p, 1, nodes, NET, exchange='direct')['filter'][1]
    assert direct == pytest.approx(lg * ts + (63 + 4) * ts + tw * (1e6 * 63 / 64 + 2e6))
    auto = w.predict(p, 1, nodes, NET, exchange='auto')['filter'][1]
    want = lg * ts + 3 * NET.ts_inter + 15 * NET.ts_intra + 4 * ts + \
        (1e6 * 3 / 4 + 2e6) * NET.tw_inter + (1e6 * 15 / 16 + 4e6) * NET.tw_intra
    assert auto == pytest.approx(want)
    assert auto < direct / 5  # the link shared by 16 ranks carries each byte once


def test_build_workloads_fits_traffic_and_falls_back_without_it(raw):
    rows = []
    for i, rpn in enumerate([1, 2, 4]):
        traffic = [{'route': (2 * (rpn - 1), 4000 * (rpn - 1) // rpn ** 2)} for _ in range(rpn)]
        row, reason = sweep_verify.check_run(make_run(raw, 'r%d' % i, rpn=rpn, traffic=traffic), refs_of(raw))
        assert reason is None
        rows.append(row)
    phases = sweep_tables.phase_names(rows)
    w = sweep_tables.build_workloads(rows, sweep_tables.aggregate(rows, phases), phases)[DATASET]
    assert set(w.traffic) == {'route'}
    assert (w.traffic['route'].a, w.traffic['route'].B) == (pytest.approx(2.0), pytest.approx(4000, rel=0.01))
    old = [{k: v for k, v in r.items() if not k.startswith('traffic_')} for r in rows]
    assert sweep_tables.build_workloads(old, sweep_tables.aggregate(old, phases), phases)[DATASET].traffic == {}


def test_report_model_shrinks_with_p():
    w = workload(report=1.0)
    w.traffic['report'] = costmodel.TrafficFit('sort', a=4.0, b=4.0, B=2e6, C=64 * 24)
    times = [sum(w.predict(p, 1, p, NET)['report']) for p in (1, 2, 4, 8, 16, 32, 64)]
    assert all(a > b for a, b in zip(times, times[1:])), times
    comp = [w.predict(p, 1, p, NET)['report'][0] for p in (1, 64)]
    assert comp[1] < comp[0] / 32  # no rank writes the whole output any more


def test_heaps_fit_recovers_k_and_beta():
    colls = [{'words': n, 'distinct': 40.0 * n ** 0.5, 'misspelled': 3.0 * n ** 0.7} for n in (1e5, 1e6, 1e8)]
    laws = sweep_tables.heaps_laws(colls)
    assert laws['distinct'] == (pytest.approx(40.0), pytest.approx(0.5))
    assert laws['misspelled'] == (pytest.approx(3.0), pytest.approx(0.7))


def test_heaps_fit_from_stats_files_of_collections():
    docs = [{'counts': {'words': n, 'distinct': int(50 * n ** 0.45), 'misspelled': int(2 * n ** 0.6)}}
            for n in (10 ** 5, 10 ** 6, 10 ** 7)] + [{'counts': {'words': 5}}]  # no counts: left out
    laws = sweep_tables.heaps_laws(sweep_tables.collections_from_stats(docs))
    assert laws['distinct'][1] == pytest.approx(0.45, abs=1e-3)
    assert laws['misspelled'][1] == pytest.approx(0.6, abs=1e-3)
    assert sweep_tables.heaps_laws(sweep_tables.collections_from_stats(docs[:1])) is None


def test_heaps_scaling_of_a_document_workload():
    w = workload(read=1.0, shuffle=1.0, index=1.0, filter=1.0, ingest=1.0, route=1.0, judge=1.0, candidates=1.0,
                 report=1.0)
    w.traffic['route'] = costmodel.TrafficFit('alltoall', B=1e6)
    s = w.scaled(100.0, 0.5, 0.75)
    assert [s.t1[ph] for ph in costmodel.DICTIONARY_PHASES] == [1.0] * 4
    assert s.t1['ingest'] == pytest.approx(100.0) and s.input_bytes == pytest.approx(100 * w.input_bytes)
    assert s.t1['route'] == pytest.approx(10.0) and s.t1['judge'] == pytest.approx(10.0)
    assert s.t1['candidates'] == pytest.approx(100 ** 0.75) and s.lines == pytest.approx(100 ** 0.75 * w.lines)
    assert s.traffic['route'].B == pytest.approx(1e7) and w.traffic['route'].B == 1e6  # a copy
    w.distinct = 2 * w.lines  # misspelled grows faster, but never past the distinct words
    big = w.scaled(1e6, 0.5, 0.75)
    assert big.distinct == pytest.approx(1e3 * w.distinct) and big.lines == pytest.approx(big.distinct)
    rows = sweep_tables.extrapolate_collections(w, [NET], {'distinct': (1, 0.5), 'misspelled': (1, 0.75)},
                                                [1, 2, 4], 4, 1, collections=[('x', 1e9)])
    eff = [r['efficiency'] for r in rows if r['phase'] == 'total']
    assert eff[0] == 1.0 and all(0 < e <= 1.0 for e in eff)
    assert sweep_tables.target_verdicts(rows, 'test', [('x', 4)])[0].startswith('x at 4 nodes: predicted efficiency')
