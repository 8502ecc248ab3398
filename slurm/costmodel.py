"""costmodel -- the t_s + t_w*m model of spellcheck's phases (used by collect.py).

Each phase's time on p ranks x t threads is a compute part plus a
communication part:

  compute(phase)  = T1(phase) * imbalance / p * ((1 - f) + f / t)
                    T1: the phase's time in the 1-rank, 1-thread run (2 x the
                        2-rank time for a phase the 1-rank run skips);
                    f:  its thread-parallel fraction (Amdahl), from the
                        1-rank 2-thread run where measured;
                    report: every rank sorts its own lines and writes its
                        slice of the output (collective MPI-IO), so it
                        shrinks with p like the others, plus the one part
                        that grows: the p*s samples (s = sample_count(p):
                        64 lines per rank up to 256 ranks, then 16384/p, at
                        least 16) merged up a binomial tree to rank 0,
                        which picks the p-1 splitters while the others wait
                        for them. The tree's critical path merges about 2n
                        keys (2s, 4s, ... ps), at c seconds a key: c =
                        SAMPLE_MERGE_SECONDS (bench/splitter_bench), or the
                        1-rank report time / L for its L lines when smaller
                        (an upper bound: that time also formats and
                        writes).
  comm(phase)     = start-ups * t_s + bytes per rank * t_w, per rank, the
                    busiest rank's, plus ceil(log2 p) t_s for the agreement
                    all-reduce that ends every phase.
                    All-to-alls (shuffle, route, the report's lines) go as
                    the program's --exchange says (two_level(): auto, the
                    default, takes two levels from 16 ranks on 2+ nodes
                    while the start-ups saved outweigh one more copy): in two
                    levels a(L-1) start-ups inside the node and a(N-1)
                    across, and every byte once more at the intra-node t_w.
                    The filters' allgather and OR go in two levels where
                    the all-to-alls could (whatever the size): across nodes
                    a node's link carries each byte once, not once per rank.
                    The report's gather and broadcast are trees in MPI:
                    ceil(log2 p) start-ups each, not the p-1 at the root
                    that the wrappers count.

  Measured traffic (--stats phase_traffic, max over ranks; TrafficFit):
    messages per rank  m(p) = a (p-1) + b              (all-to-all phases,
                                                        filter, the others)
                       m(p) = a t (p-1) + b + bytes/batch   (candidates:
                              each thread keeps one open batch per owner,
                              and a full batch goes at once)
    bytes per rank, fitted over the measured rank counts:
      shuffle, route   B (p-1) / p^(1+g)   all-to-all of a 1/p share that
                       keeps (p-1)/p of it. g = 1 when the shares are
                       distinct items (dictionary entries, word lists);
                       document mode ships each rank's locally distinct
                       words, which shrink slower than 1/p (Heaps' law),
                       so g is fitted (clipped to [0, 1]); 2+ rank counts
                       are needed, else g = 1.
      filter           B (p-1) / p + C     allgather of the Bloom filter
                       blocks (received volume does not shrink) + the
                       affix filter's all-reduce (C, constant).
      report           B (p-1) / p^2 + C p (p-1)   sample sort: one
                       all-to-all of the lines, plus the p-1 splitters
                       broadcast from rank 0, which the wrappers count as
                       p-1 sends of all of them on rank 0 (C = one key's
                       bytes; fitted from 3+ rank counts, else
                       SAMPLE_KEY_BYTES and B fitted on the rest). On the
                       wire (predict): the p*s samples gathered on rank 0
                       and the splitters broadcast once per rank,
                       C p (s + 1), with the start-ups in m(p).
      candidates       bytes per remote lookup (busiest rank, request +
                       reply, measured) x remote lookups per rank
                       S/p = phi * G * (p-1)/p / p (G candidates generated,
                       phi the filter pass rate, both measured); messages
                       at most 2 per remote lookup.
      the others       their mean (agreement reductions only).

  Estimates, for a phase without measured traffic (stats files before
  phase_traffic):
    shuffle, route  alltoall of counts (log p steps) + alltoallv of the
                    words (p-1 pairwise steps):
                      (p-1 + ceil(log2 p)) t_s + t_w * B/p * (p-1)/p
                      (B = dictionary or word-list bytes + 8 bytes of hash
                      per word; document mode ships distinct words, so
                      this overestimates its route volume)
    filter          allgather of every rank's Bloom filter block:
                      ceil(log2 p) t_s + t_w * F_rank * (p-1)
    candidates      request/reply batches:
                      2 m_c t_s + t_w * beta * S/p,
                      m_c = max(min(t(p-1), S/p), beta*S/p / batch)
    report          sample sort: all-to-all of the output lines + the
                    samples' gather and the splitters' broadcast:
                      (p-1 + ceil(log2 p)) t_s + t_w * (O (p-1)/p^2 + C p (s + 1))
                      (O output bytes, C = SAMPLE_KEY_BYTES)
  No overlap of communication with computation is assumed (an upper bound:
  the lookup service does overlap its batches with candidate generation).

Start-ups and per-byte costs come from bench/commcost: within a node the
intra-node ping-pong, across nodes the inter-node one, mixed by the share of
peers off the node; off-node bytes cost rpn x t_w because the rpn ranks of a
node share its link. On an oversubscribed machine (more busy threads than
hardware threads) compute is stretched by cores/hw_cpus, which is what lets
the model follow the measured points past 2 cores here.

Collections (Workload.scaled): a document workload measured on one
collection predicts another of s times its bytes by scaling each phase with
what grows in it: ingest ~ bytes (s); route and judge ~ distinct words,
candidates and report ~ misspelled distinct words, both by Heaps' law
V = K n^beta (fit_heaps, from collections of several sizes; misspelled
never more than distinct, where the two fitted laws cross); the
dictionary phases (read, shuffle, index, filter) stay as measured.
"""
import copy
import math

PHASES = ['read', 'shuffle', 'index', 'filter', 'ingest', 'route', 'judge', 'candidates', 'report']
# Phases whose work is the dictionary's: the same for any input collection.
DICTIONARY_PHASES = ['read', 'shuffle', 'index', 'filter']
# Which communication pattern each phase's measured traffic is fitted with.
TRAFFIC_PATTERN = {'shuffle': 'alltoall', 'route': 'alltoall', 'filter': 'allgather', 'candidates': 'lookup',
                   'report': 'sort'}

# Assumed for the on-paper extrapolation besides the calibrated values: an
# HDR InfiniBand-class network (about 1.5 us start-up, 12.5 GB/s per link).
ASSUMED_NET = {'name': 'assumed InfiniBand-class (t_s=1.5us, 12.5 GB/s)', 'ts_inter': 1.5e-6,
               'tw_inter': 0.08e-9, 'ts_intra': 0.4e-6, 'tw_intra': 0.1e-9}

# src/comm/node_exchange.hpp: --exchange auto, the program's default since
# 2b88713, takes two levels (within each node, then across nodes) from 16
# ranks on 2+ nodes while the start-ups it saves outweigh copying the most a
# rank sends once more inside the node. The extrapolation predicts the
# program as shipped (auto); the measured points, as their runs went.
PROGRAM_EXCHANGE = 'auto'
TWO_LEVEL_FROM_RANKS = 16
TWO_LEVEL_STARTUP_SECONDS = 1.5e-6
TWO_LEVEL_COPY_SECONDS_PER_BYTE = 0.1e-9


def two_level(exchange, p, nodes, rpn, bytes_rank):
    """Whether the program's all-to-all goes in two levels (use_two_level)."""
    if nodes < 2 or rpn < 2 or p != nodes * rpn:
        return False
    if exchange == 'two-level':
        return p > 2
    if exchange != 'auto' or p < TWO_LEVEL_FROM_RANKS:
        return False
    saved = (p - 1) - (rpn - 1) - (nodes - 1)
    return saved * TWO_LEVEL_STARTUP_SECONDS > bytes_rank * TWO_LEVEL_COPY_SECONDS_PER_BYTE


# src/output/sorted_output.cpp: samples_per_rank of the sample sort, and
# sample_count's budget past 256 ranks.
SAMPLES_PER_RANK = 64
SAMPLE_BUDGET = 16384
FEWEST_SAMPLES_PER_RANK = 16


def sample_count(p):
    """Samples each rank gives the sample sort (sorted_output.cpp's
    sample_count with the default samples_per_rank)."""
    return min(SAMPLES_PER_RANK, max(FEWEST_SAMPLES_PER_RANK, SAMPLE_BUDGET // max(1, p)))

# Bytes of one sample in the run format (the key: candidate count and word,
# no suggestions), assumed when the measured rank counts cannot separate the
# samples' traffic from the lines' (fewer than 3 rank counts).
SAMPLE_KEY_BYTES = 24
# Seconds a key of one merge of sorted samples, as sort_runs merges them
# up its tree: 45-46 ns at n = 16384 keys, 51-52 ns at n = 131072
# (bench/splitter_bench, best of 5, 3 runs, this 2-core VM, 2026-12-03; the
# same run times std::sort of all n on rank 0, the way before, at 2.0-2.2
# and 23.7-24.4 ms). Workload.merge_seconds takes the smaller of this and
# the 1-rank report's bound.
SAMPLE_MERGE_SECONDS = 50e-9

# Document collections measured with the program's own --stats counts
# (mpirun -n 2 build/spellcheck --threads 1 --stats S.json
#  /work/data/dict/american-insane.txt /work/data/docs/SIZE, 2026-12-03):
# input bytes, tokens (counts.words), distinct words, misspelled distinct.
MEASURED_COLLECTIONS = [
    {'name': 'docs/small', 'bytes': 5199831, 'words': 793861, 'distinct': 64496, 'misspelled': 19594},
    {'name': 'docs/medium', 'bytes': 100673008, 'words': 15139774, 'distinct': 406099, 'misspelled': 187262},
    {'name': 'docs/large', 'bytes': 1004852972, 'words': 151634524, 'distinct': 724481, 'misspelled': 504655},
]


def lg(p):
    return max(1, math.ceil(math.log2(p))) if p > 1 else 0


def least_squares(xs, ys):
    """Coefficients c minimising sum (y - sum c_j x_j)^2; xs: rows of regressors."""
    k = len(xs[0])
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    # Gauss-Jordan with partial pivoting on the k x k normal equations.
    m = [row[:] + [v] for row, v in zip(ata, aty)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-300:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] for i in range(k)]


def nonnegative_fit(xs, ys):
    """Least squares with every coefficient >= 0 (drops a negative one and refits)."""
    active = list(range(len(xs[0])))
    while active:
        c = least_squares([[x[j] for j in active] for x in xs], ys) if len(xs) >= len(active) else None
        if c is None:
            active = active[:-1]
            continue
        if min(c) >= 0:
            out = [0.0] * len(xs[0])
            for j, v in zip(active, c):
                out[j] = v
            return out
        active.remove(active[min(range(len(c)), key=lambda i: c[i])])
    return [0.0] * len(xs[0])


class TrafficFit:
    """How one phase's measured messages and bytes per rank (busiest rank)
    grow with p; see the module docstring for the forms."""

    def __init__(self, pattern, a=0.0, b=0.0, B=0.0, C=0.0, gamma=1.0, per_lookup=0.0, points=0):
        self.pattern = pattern
        self.a, self.b = a, b                # messages: a * x + b
        self.B, self.C, self.gamma = B, C, gamma
        self.per_lookup = per_lookup          # candidates: bytes per remote lookup
        self.points = points                  # rank counts (> 1) it was fitted on

    def counted_bytes(self, p, lookups=0.0):
        """Bytes per rank as the --stats wrappers count them."""
        if p <= 1:
            return 0.0
        if self.pattern == 'alltoall':
            return self.B * (p - 1) / p ** (1 + self.gamma)
        if self.pattern == 'allgather':
            return self.B * (p - 1) / p + self.C
        if self.pattern == 'sort':
            return self.B * (p - 1) / p ** 2 + self.C * p * (p - 1)
        if self.pattern == 'lookup':
            return self.per_lookup * lookups
        return self.C

    def wire_bytes(self, p, lookups=0.0):
        """Bytes per rank on the wire: as counted, except the samples'
        broadcast, which MPI sends once per rank, not p-1 times from rank 0."""
        if self.pattern == 'sort' and p > 1:
            return self.B * (p - 1) / p ** 2 + self.C * p * (sample_count(p) + 1)
        return self.counted_bytes(p, lookups)

    def messages(self, p, t=1, bytes_rank=0.0, batch=65536, lookups=None):
        if p <= 1:
            return 0.0
        if self.pattern == 'lookup':
            m = self.a * t * (p - 1) + self.b
            if lookups is not None:
                m = min(m, 2 * lookups + self.b)
            return max(0.0, m) + bytes_rank / batch
        return max(0.0, self.a * (p - 1) + self.b)

    def describe(self):
        x = 't(p-1)' if self.pattern == 'lookup' else '(p-1)'
        m = 'messages %.3g %s + %.3g%s' % (self.a, x, self.b, ' + bytes/batch' if self.pattern == 'lookup' else '')
        if self.pattern == 'alltoall':
            b = 'bytes %.4g (p-1)/p^%.2f' % (self.B, 1 + self.gamma)
        elif self.pattern == 'allgather':
            b = 'bytes %.4g (p-1)/p + %.4g' % (self.B, self.C)
        elif self.pattern == 'sort':
            b = 'bytes %.4g (p-1)/p^2 + %.4g p(p-1) counted (%.4g p(s+1) of samples and splitters on the wire)' % (
                self.B, self.C, self.C)
        elif self.pattern == 'lookup':
            b = '%.1f bytes per remote lookup' % self.per_lookup
        else:
            b = 'bytes %.4g' % self.C
        return '%s; %s (from %d rank count(s))' % (m, b, self.points)


def fit_traffic(pattern, samples, batch=65536, sample_bytes=SAMPLE_KEY_BYTES):
    """samples: (p, t, messages, bytes[, remote lookups per rank]) of the
    busiest rank, p > 1 only; sample_bytes: the sort pattern's C when fewer
    than 3 rank counts. -> TrafficFit or None."""
    samples = [s for s in samples if s[0] > 1]
    if not samples:
        return None
    ps = sorted({s[0] for s in samples})
    fit = TrafficFit(pattern, points=len(ps))
    if pattern == 'lookup':
        xs = [[s[1] * (s[0] - 1), 1.0] for s in samples]
        ys = [s[2] - s[3] / batch for s in samples]
    else:
        xs = [[s[0] - 1.0, 1.0] for s in samples]
        ys = [float(s[2]) for s in samples]
    if len({tuple(x) for x in xs}) >= 2:
        fit.a, fit.b = nonnegative_fit(xs, ys)
    else:  # one configuration: all of it per peer
        fit.a, fit.b = max(0.0, sum(ys) / len(ys) / xs[0][0]), 0.0
    by = [(float(s[0]), float(s[3])) for s in samples]
    if pattern == 'alltoall':
        if len(ps) >= 2 and all(y > 0 for _, y in by):
            # log(y p/(p-1)) = log B - g log p
            c = least_squares([[1.0, math.log(p)] for p, _ in by], [math.log(y * p / (p - 1)) for p, y in by])
            fit.gamma = min(1.0, max(0.0, -c[1])) if c else 1.0
        g = [(p - 1) / p ** (1 + fit.gamma) for p, _ in by]
        fit.B = sum(gi * y for gi, (_, y) in zip(g, by)) / sum(gi * gi for gi in g)
    elif pattern == 'allgather' and len(ps) >= 2:
        fit.B, fit.C = nonnegative_fit([[(p - 1) / p, 1.0] for p, _ in by], [y for _, y in by])
    elif pattern == 'allgather':
        fit.B = sum(y * p / (p - 1) for p, y in by) / len(by)
    elif pattern == 'sort' and len(ps) >= 3:
        fit.B, fit.C = nonnegative_fit([[(p - 1) / p ** 2, p * (p - 1)] for p, _ in by], [y for _, y in by])
    elif pattern == 'sort':
        fit.C = sample_bytes
        g = [(p - 1) / p ** 2 for p, _ in by]
        rest = [max(0.0, y - sample_bytes * p * (p - 1)) for p, y in by]
        fit.B = sum(gi * y for gi, y in zip(g, rest)) / sum(gi * gi for gi in g)
    elif pattern == 'lookup':
        per = [s[3] / s[4] for s in samples if len(s) > 4 and s[4] > 0]
        if not per:
            return None
        fit.per_lookup = sorted(per)[len(per) // 2]
    else:
        fit.C = sum(y for _, y in by) / len(by)
    return fit


def fit_heaps(collections, key='distinct'):
    """V = K n^beta by least squares in log-log over collections
    ({'words': n, key: V}); -> (K, beta)."""
    pts = [(math.log(c['words']), math.log(c[key])) for c in collections if c.get('words') and c.get(key)]
    if len(pts) < 2:
        return None
    c = least_squares([[1.0, x] for x, _ in pts], [y for _, y in pts])
    return (math.exp(c[0]), c[1]) if c else None


class Net:
    """t_s/t_w within and across nodes."""

    def __init__(self, ts_intra, tw_intra, ts_inter, tw_inter, name):
        self.ts_intra, self.tw_intra = ts_intra, tw_intra
        self.ts_inter, self.tw_inter = ts_inter, tw_inter
        self.name = name

    @staticmethod
    def from_commcost(docs, name='calibrated'):
        """docs: parsed commcost JSON files. Takes the smallest value over
        files: the least disturbed calibration (a run with more ranks than
        cores measures the scheduler, not the network)."""
        def med(key, field):
            v = sorted(d[key][field] for d in docs if key in d and d[key].get(field, 0) > 0)
            return v[0] if v else None
        ts_a = med('pingpong_intra', 't_s')
        tw_a = med('pingpong_intra', 't_w')
        ts_e = med('pingpong_inter', 't_s')
        tw_e = med('pingpong_inter', 't_w')
        if ts_a is None and ts_e is None:
            return None
        ts_a = ts_a if ts_a is not None else ts_e
        tw_a = tw_a if tw_a is not None else tw_e
        ts_e = ts_e if ts_e is not None else ts_a
        tw_e = tw_e if tw_e is not None else tw_a
        return Net(ts_a, tw_a or 0.0, ts_e, tw_e or 0.0, name)

    def mix(self, p, rpn):
        """(t_s, t_w) for traffic spread evenly over the p-1 peers. The rpn
        ranks of a node send off the node at the same time (every exchange is
        collective) through one link: each gets 1/rpn of its bandwidth."""
        if p <= 1:
            return self.ts_intra, self.tw_intra
        off = max(0, p - rpn) / (p - 1)
        return (off * self.ts_inter + (1 - off) * self.ts_intra,
                off * self.tw_inter * rpn + (1 - off) * self.tw_intra)


class Workload:
    """What one dataset costs, from its measured runs."""

    def __init__(self, name):
        self.name = name
        self.phases = list(PHASES)  # every measured phase (others: compute only)
        self.t1 = {}              # phase -> seconds at p=1, t=1 (median)
        self.f = {}               # phase -> thread-parallel fraction
        self.traffic = {}         # phase -> TrafficFit from measured traffic
        self.dict_bytes = 0
        self.input_bytes = 0
        self.words = 0            # input words (each routed word carries an 8-byte hash)
        self.output_bytes = 0
        self.lines = 0            # output lines (misspelled words)
        self.distinct = 0         # distinct input words
        self.entries = 0
        self.generated = 0
        self.phi = 0.0            # filter pass rate of remote candidates
        self.beta = 24.0          # bytes per remote lookup (request + reply)
        self.batch = 65536
        self.filter_bits = 12.0
        self.imbalance = 1.0
        self.merge_seconds = SAMPLE_MERGE_SECONDS  # per key merged on the splitters' critical path
        self.exchange = 'direct'  # --exchange of the measured runs
        self.skipped_on_one = []

    def wire_bytes(self, phase):
        """Bytes all ranks together route in shuffle or route: the words, a
        newline each, and the 8-byte hash that travels with every word."""
        if phase == 'shuffle':
            return self.dict_bytes + 8 * self.entries
        return self.input_bytes + 8 * self.words

    def filter_rank_bytes(self, p):
        return math.ceil(self.entries / p * self.filter_bits / 8 / 64) * 64

    def samples(self, p):
        """Samples the report's sample sort merges to rank 0."""
        if p <= 1:
            return 0
        per_rank = min(sample_count(p), self.lines / p) if self.lines else sample_count(p)
        return p * per_rank

    def sample_sort(self, p):
        """Seconds of merging on the tree's critical path before rank 0
        has the p*s samples in order (the others wait for its splitters)."""
        n = self.samples(p)
        return self.merge_seconds * 2 * n if n > 1 else 0.0

    def measured_phases(self):
        return [ph for ph in self.phases if ph in self.traffic]

    def scaled(self, factor, distinct_beta, misspelled_beta, name=None):
        """The workload on a collection `factor` times this one's bytes (see
        the module docstring): ingest ~ factor; route, judge ~ distinct words
        (factor^distinct_beta); candidates, report ~ misspelled distinct words
        (factor^misspelled_beta); the dictionary phases unchanged."""
        w = copy.deepcopy(self)
        w.name = name or '%s x %.3g' % (self.name, factor)
        v = factor ** distinct_beta
        mv = factor ** misspelled_beta
        if self.distinct and self.lines:  # misspelled words are distinct words too
            mv = min(mv, v * self.distinct / self.lines)
        grow = {'ingest': factor, 'route': v, 'judge': v, 'candidates': mv, 'report': mv}
        if 'ingest' not in self.phases:  # word lists: read holds the input too
            grow['read'] = factor
        for ph, g in grow.items():
            if ph in w.t1:
                w.t1[ph] *= g
        for ph in ('route', 'report'):
            if ph in w.traffic:
                w.traffic[ph].B *= grow[ph]
        w.input_bytes = self.input_bytes * factor
        w.words = self.words * factor
        w.generated = self.generated * mv
        w.output_bytes = self.output_bytes * mv
        w.lines = self.lines * mv
        w.distinct = self.distinct * v
        return w

    def predict(self, p, t, nodes, net, hw_cpus=None, exchange=None):
        """phase -> (compute, comm) seconds for p ranks x t threads on nodes;
        exchange: the program's --exchange (default: the measured runs')."""
        exchange = exchange or self.exchange
        rpn = max(1, p // max(1, nodes))
        ts, tw = net.mix(p, rpn)
        cores = p * t
        stretch = 1.0
        if hw_cpus and cores > hw_cpus:
            stretch = cores / hw_cpus
        out = {}
        for ph in self.phases:
            t1 = self.t1.get(ph, 0.0)
            f = self.f.get(ph, 0.0)
            imb = self.imbalance if ph in ('index', 'judge', 'candidates') else 1.0
            comp = t1 * imb / p * ((1 - f) + f / t)
            if ph == 'report':
                comp += self.sample_sort(p)
            comp *= stretch
            comm = lg(p) * ts  # the agreement all-reduce
            if p > 1:
                comm += self.measured_comm(ph, p, t, ts, tw, nodes, net, exchange) if ph in self.traffic else \
                    self.estimated_comm(ph, p, t, ts, tw)
            out[ph] = (comp, comm)
        return out

    def remote_lookups(self, p):
        return self.phi * self.generated * (p - 1) / p / p

    def measured_comm(self, ph, p, t, ts, tw, nodes=1, net=None, exchange='direct'):
        fit = self.traffic[ph]
        lookups = self.remote_lookups(p)
        b = fit.wire_bytes(p, lookups)
        rpn = max(1, p // max(1, nodes))
        if fit.pattern == 'allgather' and p > 1 and net is not None and two_level(exchange, p, nodes, rpn, 0):
            # The filters' collectives in two levels: the Bloom blocks
            # (B) across nodes from the N-1 peers at the same place, each
            # node's link carrying every byte once, then inside the node;
            # the affix filter's OR (C): the node's OR, each rank's 1/L
            # slice across nodes, the slices put together inside the node.
            start = fit.a * ((nodes - 1) * net.ts_inter + (rpn - 1) * net.ts_intra) + fit.b * ts
            return start + (fit.B * (nodes - 1) / nodes + fit.C) * net.tw_inter + \
                (fit.B * (rpn - 1) / rpn + 2 * fit.C) * net.tw_intra
        if fit.pattern not in ('alltoall', 'sort') or p <= 1:
            m = fit.messages(p, t, b, self.batch, lookups if fit.pattern == 'lookup' else None)
            return m * ts + b * tw
        # a (p-1): a send and a receive per peer for the all-to-all itself;
        # the sort's other start-ups are collectives (the samples' gather,
        # the splitters' broadcast) that the wrappers count as p-1 at the
        # root but MPI runs as trees (Open MPI's binomial gather and
        # broadcast): ceil(log2 p) steps.
        per_peer = fit.a if fit.pattern == 'alltoall' else min(fit.a, 2.0)
        collectives = fit.a - per_peer
        lines = b if fit.pattern == 'alltoall' else fit.B * (p - 1) / p ** 2
        start = (collectives * lg(p) + fit.b) * ts
        extra = 0.0
        if net is not None and two_level(exchange, p, nodes, rpn, lines):
            # (L-1) peers inside the node, then (N-1) across; every byte
            # copied once more inside the node.
            start += per_peer * ((rpn - 1) * net.ts_intra + (nodes - 1) * net.ts_inter)
            extra = lines * net.tw_intra
        else:
            start += per_peer * (p - 1) * ts
        return max(0.0, start) + b * tw + extra

    def estimated_comm(self, ph, p, t, ts, tw):
        share = (p - 1) / p
        if ph in ('shuffle', 'route'):
            return (p - 1 + lg(p)) * ts + tw * self.wire_bytes(ph) / p * share
        if ph == 'filter':
            return lg(p) * ts + tw * self.filter_rank_bytes(p) * (p - 1)
        if ph == 'candidates':
            s_rank = self.remote_lookups(p)
            b_rank = self.beta * s_rank
            # every thread keeps one open batch per destination
            m = max(min(t * (p - 1), s_rank), b_rank / self.batch)
            return 2 * m * ts + tw * b_rank
        if ph == 'report':
            return (p - 1 + lg(p)) * ts + tw * (self.output_bytes * share / p +
                                                 (self.samples(p) + p) * SAMPLE_KEY_BYTES)
        return 0.0

    def total(self, pred):
        return sum(c + m for c, m in pred.values())
