// commcost: calibrates the t_s + t_w*m communication cost model under MPI.
//
//   mpirun -n P commcost [--json FILE] [--max-bytes N] [--reps N] [--quick]
//
// Measures, on MPI_COMM_WORLD:
//   pingpong.intra  rank 0 <-> the next rank on the same node (if any)
//   pingpong.inter  rank 0 <-> the first rank on another node (if any)
//   alltoall        MPI_Alltoall of m bytes per pair (the shape of our
//                   dictionary shuffle and word routing)
//   allgather       MPI_Allgather of m bytes per rank (Bloom filter exchange)
//   allreduce       MPI_Allreduce(MPI_BOR) of m bytes (the other filter option)
//   barrier
// and fits, for each, time = a + b*x by least squares:
//   ping-pong:  one-way time  = t_s + t_w*m          (x = m)
//   alltoall:   time = (p-1)*t_s + t_w*(p-1)*m       (x = (p-1)*m, a/(p-1) = t_s)
//   allgather:  time = (p-1)*t_s + t_w*(p-1)*m       (same fit)
//   allreduce:  time = a + b*m                       (a ~ log2(p)*t_s)
// Every time is the 10th percentile over repetitions (each timed on its
// own), so that a shared or oversubscribed machine's scheduling delays do not
// pass for network cost. Prints a table on rank 0 and, with --json, writes
// every point and fit so
// results/collect.py can feed the spellcheck phase model. A benchmark: it
// prints figures and asserts nothing about them.
//
// This program measures MPI itself, so it calls MPI directly (the project
// rule that MPI lives in three files is about spellcheck's own code).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Point {
  double x;        // bytes (or bytes*(p-1))
  double seconds;  // 10th percentile over repetitions
};

struct Fit {
  double a = 0;  // intercept, seconds
  double b = 0;  // slope, seconds per byte
};

// Least squares on the points; the intercept is clamped at >= 0 (a negative
// start-up is a fit artefact of noisy large messages).
Fit fit_line(const std::vector<Point>& pts) {
  Fit f;
  if (pts.empty()) return f;
  if (pts.size() == 1) {
    f.a = pts[0].seconds;
    return f;
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(pts.size());
  for (const Point& p : pts) {
    sx += p.x;
    sy += p.seconds;
    sxx += p.x * p.x;
    sxy += p.x * p.seconds;
  }
  const double den = n * sxx - sx * sx;
  if (den <= 0) {
    f.a = sy / n;
    return f;
  }
  f.b = (n * sxy - sx * sy) / den;
  f.a = (sy - f.b * sx) / n;
  if (f.a < 0) {
    // Refit through the smallest point's time as intercept.
    f.a = pts.front().seconds;
    double num = 0, dd = 0;
    for (const Point& p : pts) {
      num += p.x * (p.seconds - f.a);
      dd += p.x * p.x;
    }
    f.b = dd > 0 ? num / dd : 0;
  }
  if (f.b < 0) f.b = 0;
  return f;
}

// q-quantile (0..1) by nearest rank.
double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// Repetitions so that one size takes roughly a fixed amount of time.
int reps_for(size_t bytes, int base) {
  if (bytes >= (1u << 20)) return std::max(3, base / 20);
  if (bytes >= (1u << 16)) return std::max(5, base / 4);
  return base;
}

std::vector<size_t> sizes_up_to(size_t max_bytes, bool with_zero) {
  std::vector<size_t> s;
  if (with_zero) s.push_back(0);
  for (size_t m = 1; m <= max_bytes; m *= 4) s.push_back(m);
  if (s.back() != max_bytes && max_bytes > 0) s.push_back(max_bytes);
  return s;
}

// One-way ping-pong time between ranks a and b (others idle): every round
// trip is timed on its own and the 10th percentile kept. On a shared or
// oversubscribed machine a descheduled rank adds milliseconds to some round
// trips; the low percentile is what the network itself costs.
std::vector<Point> pingpong(int a, int b, const std::vector<size_t>& sizes, int base_reps) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<Point> pts;
  std::vector<char> buf(sizes.empty() ? 1 : std::max<size_t>(1, sizes.back()));
  for (size_t m : sizes) {
    const int reps = reps_for(m, base_reps) * 3;
    std::vector<double> samples;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < reps + 2; ++i) {
      const double t0 = MPI_Wtime();
      if (rank == a) {
        MPI_Send(buf.data(), static_cast<int>(m), MPI_BYTE, b, 7, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), static_cast<int>(m), MPI_BYTE, b, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == b) {
        MPI_Recv(buf.data(), static_cast<int>(m), MPI_BYTE, a, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), static_cast<int>(m), MPI_BYTE, a, 7, MPI_COMM_WORLD);
      }
      if (i >= 2) samples.push_back((MPI_Wtime() - t0) / 2.0);  // two warm-up round trips
    }
    double p10 = percentile(samples, 0.10);
    MPI_Bcast(&p10, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
    pts.push_back({static_cast<double>(m), p10});
  }
  return pts;
}

enum class Coll { alltoall, allgather, allreduce, barrier };

// Median over repetitions of the slowest rank's time for one collective.
double time_collective(Coll kind, size_t m, int reps) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const size_t total = kind == Coll::allreduce ? m : m * static_cast<size_t>(p);
  std::vector<unsigned char> send(std::max<size_t>(1, total), 1), recv(std::max<size_t>(1, total));
  std::vector<double> samples;
  for (int i = 0; i < reps + 1; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    switch (kind) {
      case Coll::alltoall:
        MPI_Alltoall(send.data(), static_cast<int>(m), MPI_BYTE, recv.data(), static_cast<int>(m), MPI_BYTE,
                     MPI_COMM_WORLD);
        break;
      case Coll::allgather:
        MPI_Allgather(send.data(), static_cast<int>(m), MPI_BYTE, recv.data(), static_cast<int>(m), MPI_BYTE,
                      MPI_COMM_WORLD);
        break;
      case Coll::allreduce:
        MPI_Allreduce(send.data(), recv.data(), static_cast<int>(m), MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
        break;
      case Coll::barrier: MPI_Barrier(MPI_COMM_WORLD); break;
    }
    double mine = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (i > 0) samples.push_back(slowest);  // the first is a warm-up
  }
  return percentile(samples, 0.10);  // as for ping-pong: the undisturbed cost
}

std::string json_points(const std::vector<Point>& pts) {
  std::string s = "[";
  char buf[96];
  for (size_t i = 0; i < pts.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s[%.0f, %.9e]", i ? ", " : "", pts[i].x, pts[i].seconds);
    s += buf;
  }
  return s + "]";
}

std::string json_fit(const char* name, const std::vector<Point>& pts, const Fit& f, double ts, double tw,
                     const std::string& extra) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "\"%s\": {\"t_s\": %.9e, \"t_w\": %.9e, \"a\": %.9e, \"b\": %.9e%s, \"points\": ", name, ts, tw, f.a,
                f.b, extra.c_str());
  return std::string(buf) + json_points(pts) + "}";
}

void usage() {
  std::fprintf(stderr,
               "usage: commcost [--json FILE] [--max-bytes N] [--reps N] [--quick]\n"
               "  Calibrates t_s (start-up) and t_w (per byte) with ping-pong and\n"
               "  collectives on MPI_COMM_WORLD; run it under mpirun/srun.\n");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  std::string json_path;
  size_t max_bytes = 4u << 20;
  int base_reps = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        if (rank == 0) usage();
        MPI_Finalize();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--json") {
      json_path = value();
    } else if (a == "--max-bytes") {
      max_bytes = std::strtoull(value().c_str(), nullptr, 10);
    } else if (a == "--reps") {
      base_reps = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--quick") {
      max_bytes = 256u << 10;
      base_reps = 30;
    } else {
      if (rank == 0) usage();
      MPI_Finalize();
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  max_bytes = std::max<size_t>(max_bytes, 1);

  // Node of every rank (by processor name), to pick intra/inter pairs.
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> names(static_cast<size_t>(p) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  auto node_of = [&](int r) { return std::string(&names[static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME]); };
  int intra = -1, inter = -1;
  std::vector<std::string> distinct;
  for (int r = 0; r < p; ++r) {
    const std::string n = node_of(r);
    if (std::find(distinct.begin(), distinct.end(), n) == distinct.end()) distinct.push_back(n);
    if (r == 0) continue;
    if (n == node_of(0) && intra < 0) intra = r;
    if (n != node_of(0) && inter < 0) inter = r;
  }

  const std::vector<size_t> pp_sizes = sizes_up_to(max_bytes, true);
  std::vector<Point> pp_intra, pp_inter;
  if (intra > 0) pp_intra = pingpong(0, intra, pp_sizes, base_reps);
  if (inter > 0) pp_inter = pingpong(0, inter, pp_sizes, base_reps);

  // Collectives: per-pair sizes capped so that p*m stays <= max_bytes*4.
  std::vector<Point> a2a, agather, areduce;
  const size_t coll_cap = std::max<size_t>(1, (max_bytes * 4) / static_cast<size_t>(p));
  for (size_t m : sizes_up_to(std::min(coll_cap, max_bytes), false)) {
    const int reps = reps_for(m * static_cast<size_t>(p), base_reps / 4 + 3);
    a2a.push_back({static_cast<double>(m) * (p - 1), time_collective(Coll::alltoall, m, reps)});
    agather.push_back({static_cast<double>(m) * (p - 1), time_collective(Coll::allgather, m, reps)});
  }
  for (size_t m : sizes_up_to(max_bytes, false)) {
    areduce.push_back({static_cast<double>(m), time_collective(Coll::allreduce, m, reps_for(m, base_reps / 4 + 3))});
  }
  const double barrier = time_collective(Coll::barrier, 0, base_reps);

  if (rank == 0) {
    // t_s is the smallest message's time; t_w the slope from there to the
    // largest message (where bandwidth, not latency, rules). Two points, so a
    // noisy middle size cannot tilt it; the least-squares line over every
    // point is in the JSON too ("a", "b").
    auto split_fit = [](const std::vector<Point>& pts, double& ts, double& tw) {
      ts = pts.empty() ? 0 : pts.front().seconds;
      tw = 0;
      if (pts.size() >= 2 && pts.back().x > pts.front().x)
        tw = std::max(0.0, (pts.back().seconds - ts) / (pts.back().x - pts.front().x));
    };
    const double pm1 = std::max(1, p - 1);
    std::string out = "{\n  \"benchmark\": \"commcost\",\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "  \"ranks\": %d,\n  \"nodes\": %zu,\n  \"max_bytes\": %zu,\n  \"barrier\": %.9e", p,
                  distinct.size(), max_bytes, barrier);
    out += buf;
    std::printf("commcost: %d ranks on %zu node(s)\n", p, distinct.size());
    std::printf("%-16s %12s %14s   (time = t_s + t_w*bytes)\n", "pattern", "t_s [us]", "t_w [ns/B]");
    auto row = [&](const char* label, double ts, double tw) {
      std::printf("%-16s %12.3f %14.4f   (%.0f MB/s)\n", label, ts * 1e6, tw * 1e9, tw > 0 ? 1e-6 / tw : 0.0);
    };
    if (!pp_intra.empty()) {
      double ts, tw;
      split_fit(pp_intra, ts, tw);
      std::snprintf(buf, sizeof buf, ", \"pair\": [0, %d]", intra);
      out += ",\n  " + json_fit("pingpong_intra", pp_intra, fit_line(pp_intra), ts, tw, buf);
      row("pingpong intra", ts, tw);
    }
    if (!pp_inter.empty()) {
      double ts, tw;
      split_fit(pp_inter, ts, tw);
      std::snprintf(buf, sizeof buf, ", \"pair\": [0, %d]", inter);
      out += ",\n  " + json_fit("pingpong_inter", pp_inter, fit_line(pp_inter), ts, tw, buf);
      row("pingpong inter", ts, tw);
    }
    // Collectives: the same split (smallest message -> start-ups, large
    // messages -> per byte); t_s is per start-up: (p-1) of them for
    // alltoall/allgather, ceil(log2 p) for allreduce.
    if (p > 1) {
      double ts, tw;
      split_fit(a2a, ts, tw);
      out += ",\n  " + json_fit("alltoall", a2a, fit_line(a2a), ts / pm1, tw, "");
      row("alltoall", ts / pm1, tw);
      split_fit(agather, ts, tw);
      out += ",\n  " + json_fit("allgather", agather, fit_line(agather), ts / pm1, tw, "");
      row("allgather", ts / pm1, tw);
    }
    {
      double ts, tw;
      split_fit(areduce, ts, tw);
      const double lg = std::max(1.0, std::ceil(std::log2(static_cast<double>(p))));
      out += ",\n  " + json_fit("allreduce", areduce, fit_line(areduce), ts / lg, tw, "");
      row("allreduce", ts / lg, tw);
    }
    std::printf("%-16s %12.3f\n", "barrier", barrier * 1e6);
    out += "\n}\n";
    if (!json_path.empty()) {
      FILE* f = std::fopen(json_path.c_str(), "w");
      if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "commcost: error: cannot write %s\n", json_path.c_str());
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
