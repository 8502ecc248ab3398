# Hunspell dictionaries of six languages (Debian's hunspell-de-de, -fr, -es,
# -ru, -nl, -sv) on real prose of each (the first six pages of Debian's
# translated man pages, troff stripped: tests/data/man_text.py), and on the
# distinct words of those pages with a typo of every fifth: spellcheck's
# SPEC output byte for byte against hunspell_reference (libhunspell judges
# every word and candidate). The two comparisons of a language split the
# e2e_runs matrix between them (CI time): documents on p1.t1 and p3.t2, the
# word list on p2.t1 and p4.t2, so each language meets 1-4 ranks. Ranked
# mode has no reference: its output on 2-4 ranks must equal its own on one.
set(HUNSPELL_LANG_DIR ${CMAKE_CURRENT_BINARY_DIR}/hunspell-languages)
foreach(lang de_DE fr_FR es_ES ru_RU nl_NL sv_SE)
  set(dir ${HUNSPELL_LANG_DIR}/${lang})
  set(dic /usr/share/hunspell/${lang}.dic)
  add_test(NAME hunspell.data.${lang}
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/data/man_text.py ${lang} ${dir} 6)
  set_tests_properties(hunspell.data.${lang} PROPERTIES FIXTURES_SETUP hunspell.data.${lang}
    SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "e2e;hunspell")
  foreach(mode docs words)
    if(mode STREQUAL "words")
      set(args --words ${dic} ${dir}/words.txt)
      set(matrix "2|1" "4|2")
    else()
      set(args ${dic} ${dir}/docs)
      set(matrix "1|1" "3|2")
    endif()
    set(name hunspell.${lang}.${mode})
    set(expected ${E2E_EXPECTED_DIR}/${name}.txt)
    add_test(NAME ${name}.ref COMMAND $<TARGET_FILE:hunspell_reference> ${args} -o ${expected})
    set_tests_properties(${name}.ref PROPERTIES FIXTURES_SETUP ${name}.ref
      FIXTURES_REQUIRED hunspell.data.${lang} TIMEOUT 300 LABELS "e2e;hunspell;reference")
    e2e_runs(NAME ${name} MATRIX ${matrix} TIMEOUT 120 FIXTURES ${name}.ref hunspell.data.${lang} LABELS e2e hunspell
      WRAP ${E2E_EXPECT_SAME} ${expected} --
      COMMAND $<TARGET_FILE:spellcheck> ${args})
  endforeach()
endforeach()

# Ranked mode, the same on every rank count: one rank's output is the
# expected one (compounding languages: part-wise and edit suggestions too).
# Not fr_FR (CI time): judging its expanded forms for the index takes 20 s
# on one thread, and German and Dutch have the affixes and compounds.
foreach(lang de_DE nl_NL)
  set(dir ${HUNSPELL_LANG_DIR}/${lang})
  set(name hunspell.${lang}.ranked)
  set(expected ${E2E_EXPECTED_DIR}/${name}.txt)
  set(args --suggest ranked --top 5 --words /usr/share/hunspell/${lang}.dic ${dir}/words.txt)
  add_test(NAME ${name}.one COMMAND $<TARGET_FILE:spellcheck> --quiet --threads 1 ${args} -o ${expected})
  set_tests_properties(${name}.one PROPERTIES FIXTURES_SETUP ${name}.one
    FIXTURES_REQUIRED hunspell.data.${lang} TIMEOUT 120 LABELS "e2e;hunspell"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  spellcheck_add_mpi_test(NAME ${name} RANKS 2 3 4 THREADS 2 TIMEOUT 120
    FIXTURES "${name}.one;hunspell.data.${lang}" LABELS "e2e;hunspell"
    WRAP ${E2E_EXPECT_SAME} ${expected} --
    COMMAND $<TARGET_FILE:spellcheck> ${args})
endforeach()
