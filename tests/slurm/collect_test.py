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

import sweep_tables  # noqa: E402
import sweep_verify  # noqa: E402

DATASET = 'tiny'
OUTPUT = b'qzxw: \nTeh:  Tea Ted The \n'


def make_run(raw, name, *, nodes=1, rpn=1, threads=1, ranks=None, exit_code=0, output=OUTPUT,
             stats_ranks=None, stats_threads=None, misspelled=None, total=1.0, kind='strong'):
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
