# Sourced by the scripts that start ranks on this one machine (quickstart,
# benches): Open MPI's settings for a local run.
# Root is allowed (containers, CI); more ranks than cores are allowed (the
# tests oversubscribe on purpose).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# One node: ob1 over shared memory. Left to itself Open MPI first probes
# UCX, which adds about 0.2 s to every start here (`spellcheck --version`
# on 2 ranks: 0.62 s -> 0.43 s, medians of 5).
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
