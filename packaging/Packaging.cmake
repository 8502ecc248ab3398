# What `cmake --install` puts where, and the Debian package (cpack -G DEB).
#
#   PREFIX/bin/spellcheck
#   PREFIX/share/man/man1/spellcheck.1.gz      (packaging/spellcheck.1)
#   PREFIX/share/spellcheck/freq/               the shipped frequency lists
#   PREFIX/share/spellcheck/slurm/              job scripts and the collector
#   PREFIX/share/doc/spellcheck/                README.md, LICENSE, copyright
#
# The binary finds share/spellcheck relative to itself (src/dictionary/data_files.cpp),
# so the tree works under any prefix and unpacked anywhere.

# `cmake --install` and cpack install what is built; they do not build
# everything first (the package test runs on a built tree).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS spellcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Debian wants man pages compressed, without a time stamp (-n).
find_program(GZIP_PROGRAM gzip)
set(man_page ${CMAKE_CURRENT_SOURCE_DIR}/packaging/spellcheck.1)
if(GZIP_PROGRAM)
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/spellcheck.1.gz
    COMMAND ${GZIP_PROGRAM} -9nc ${man_page} > ${CMAKE_CURRENT_BINARY_DIR}/spellcheck.1.gz
    DEPENDS ${man_page} VERBATIM)
  add_custom_target(man_page ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/spellcheck.1.gz)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/spellcheck.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(FILES freq/en-80k.txt freq/de-100k.txt freq/es-100k.txt freq/fr-100k.txt
              freq/it-100k.txt freq/ru-100k.txt freq/README.md freq/LICENSES.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/spellcheck/freq)
install(PROGRAMS slurm/spellcheck.sbatch slurm/compile.sbatch slurm/scaling slurm/make-weak-data slurm/collect.py
  DESTINATION ${CMAKE_INSTALL_DATADIR}/spellcheck/slurm)
install(FILES slurm/costmodel.py slurm/sweep_verify.py slurm/sweep_tables.py slurm/sweep_plots.py slurm/README.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/spellcheck/slurm)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian's place for the licence: /usr/share/doc/<package>/copyright.
install(FILES packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME spellcheck)
set(CPACK_PACKAGE_VENDOR "spellcheck authors")
set(CPACK_PACKAGE_CONTACT "spellcheck authors <spellcheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "distributed spell checker for large text collections (MPI + OpenMP)")
set(CPACK_PACKAGE_DESCRIPTION
  "Prints every misspelled distinct word of a text collection with all its edit-distance-1 corrections, "
  "byte-identical on any number of MPI ranks and OpenMP threads; ranked suggestions on request. "
  "Includes Slurm job scripts for runs and scaling sweeps.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION text)
# Library dependencies from the binary (dpkg-shlibdeps: Open MPI, TBB, GOMP,
# libstdc++); mpirun to launch ranks; Python and matplotlib only for the
# sweep collector's plots.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-matplotlib, slurm-client, wamerican-insane")
include(CPack)
