"""costmodel -- the t_s + t_w*m model of spellcheck's phases (used by collect.py).

Each phase's time on p ranks x t threads is a compute part plus a
communication part:

  compute(phase)  = T1(phase) * imbalance / p * ((1 - f) + f / t)
                    T1: the phase's time in the 1-rank, 1-thread run (2 x the
                        2-rank time for a phase the 1-rank run skips);
                    f:  its thread-parallel fraction (Amdahl), from the
                        1-rank 2-thread run where measured;
                    report (rank 0 sorts and writes every line) does not
                    shrink with p at all.
  comm(phase)     = start-ups * t_s + bytes per rank * t_w, with the pattern
                    of the code (src/exchange.cpp, bloom_filter.cpp,
                    lookup_service.cpp, report.cpp):
    shuffle, route  alltoall of counts (log p steps) + alltoallv of the
                    words (p-1 pairwise steps):
                      (p-1 + ceil(log2 p)) t_s + t_w * B/p * (p-1)/p
                      (B = dictionary or word-list bytes + 8 bytes of hash
                      per word; document mode ships distinct words, so
                      this overestimates its route volume)
    filter          allgather of every rank's Bloom filter block:
                      ceil(log2 p) t_s + t_w * F_rank * (p-1)
                      (F_rank = filter bytes per rank, ~ 12 bits * E/p / 8;
                      the received volume F_rank*(p-1) ~ 1.5 E bytes does
                      NOT shrink with p)
    candidates      request/reply batches to the owners of candidates that
                    pass the Bloom filter:
                      2 m_c t_s + t_w * beta * S/p,
                      S = phi * G * (p-1)/p remote lookups (G candidates
                      generated, phi the filter pass rate, both measured),
                      beta bytes per remote lookup (measured),
                      m_c = max(min(t(p-1), S/p), beta*S/p / batch) batches
                      per rank (each thread fills its own batch per owner)
    report          gather of the output lines on rank 0:
                      (p-1) t_s + t_w * O   (O = output bytes, all at rank 0)
    every phase     one agreement all-reduce: ceil(log2 p) t_s
  No overlap of communication with computation is assumed (an upper bound:
  the lookup service does overlap its batches with candidate generation).

Start-ups and per-byte costs come from bench/commcost: within a node the
intra-node ping-pong, across nodes the inter-node one, mixed by the share of
peers off the node. On an oversubscribed machine (more busy threads than
hardware threads) compute is stretched by cores/hw_cpus, which is what lets
the model follow the measured points past 2 cores here.
"""
import math

PHASES = ['read', 'shuffle', 'index', 'filter', 'route', 'judge', 'candidates', 'report']

# Assumed for the on-paper extrapolation besides the calibrated values: an
# HDR InfiniBand-class network (about 1.5 us start-up, 12.5 GB/s per link).
ASSUMED_NET = {'name': 'assumed InfiniBand-class (t_s=1.5us, 12.5 GB/s)', 'ts_inter': 1.5e-6,
               'tw_inter': 0.08e-9, 'ts_intra': 0.4e-6, 'tw_intra': 0.1e-9}


def lg(p):
    return max(1, math.ceil(math.log2(p))) if p > 1 else 0


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
        """(t_s, t_w) for traffic spread evenly over the p-1 peers."""
        if p <= 1:
            return self.ts_intra, self.tw_intra
        off = max(0, p - rpn) / (p - 1)
        return (off * self.ts_inter + (1 - off) * self.ts_intra,
                off * self.tw_inter + (1 - off) * self.tw_intra)


class Workload:
    """What one dataset costs, from its measured runs."""

    def __init__(self, name):
        self.name = name
        self.phases = list(PHASES)  # every measured phase (others: compute only)
        self.t1 = {}              # phase -> seconds at p=1, t=1 (median)
        self.f = {}               # phase -> thread-parallel fraction
        self.dict_bytes = 0
        self.input_bytes = 0
        self.words = 0            # input words (each routed word carries an 8-byte hash)
        self.output_bytes = 0
        self.entries = 0
        self.generated = 0
        self.phi = 0.0            # filter pass rate of remote candidates
        self.beta = 24.0          # bytes per remote lookup (request + reply)
        self.batch = 65536
        self.filter_bits = 12.0
        self.imbalance = 1.0

    def wire_bytes(self, phase):
        """Bytes all ranks together route in shuffle or route: the words, a
        newline each, and the 8-byte hash that travels with every word."""
        if phase == 'shuffle':
            return self.dict_bytes + 8 * self.entries
        return self.input_bytes + 8 * self.words

    def filter_rank_bytes(self, p):
        return math.ceil(self.entries / p * self.filter_bits / 8 / 64) * 64

    def predict(self, p, t, nodes, net, hw_cpus=None):
        """phase -> (compute, comm) seconds for p ranks x t threads on nodes."""
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
            if ph == 'report':
                comp = t1
            else:
                imb = self.imbalance if ph in ('index', 'judge', 'candidates') else 1.0
                comp = t1 * imb / p * ((1 - f) + f / t)
            comp *= stretch
            comm = lg(p) * ts  # the agreement all-reduce
            if p > 1:
                share = (p - 1) / p
                if ph in ('shuffle', 'route'):
                    comm += (p - 1 + lg(p)) * ts + tw * self.wire_bytes(ph) / p * share
                elif ph == 'filter':
                    comm += lg(p) * ts + tw * self.filter_rank_bytes(p) * (p - 1)
                elif ph == 'candidates':
                    s_rank = self.phi * self.generated * share / p
                    b_rank = self.beta * s_rank
                    # every thread keeps one open batch per destination
                    m = max(min(t * (p - 1), s_rank), b_rank / self.batch)
                    comm += 2 * m * ts + tw * b_rank
                elif ph == 'report':
                    comm += (p - 1) * ts + tw * self.output_bytes * share
            out[ph] = (comp, comm)
        return out

    def total(self, pred):
        return sum(c + m for c, m in pred.values())
