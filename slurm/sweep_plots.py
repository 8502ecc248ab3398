"""sweep_plots -- the PNG figures of a scaling sweep (used by collect.py).

Drawn from sweep_tables' rows and points only: nothing here decides which
runs count or computes a number that goes into a CSV.
"""
import os
import statistics

from sweep_tables import WORD_PHASES, med


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
        # one row of panels per extrapolated workload (the paper dataset, each
        # collection size), one column per network
        names = list(dict.fromkeys(r['dataset'] for r in ext_rows))
        fig, axes = plt.subplots(len(names), len(nets), figsize=(6 * len(nets), 4.8 * len(names)), squeeze=False)
        for ax, (name, net) in zip([a for row in axes for a in row], [(d, n) for d in names for n in nets]):
            rs = [r for r in ext_rows if r['network'] == net.name and r['dataset'] == name]
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
