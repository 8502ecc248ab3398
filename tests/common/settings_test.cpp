// common/settings.hpp: each variable read as documented; a malformed
// value counts as unset.
#include "spellcheck/common/settings.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

using namespace spellcheck;

TEST_CASE("settings from the environment, malformed values unset") {
  ::setenv("SPELLCHECK_RANKS_PER_NODE", "4", 1);
  ::setenv("SPELLCHECK_MAX_MESSAGE_BYTES", "12x", 1);
  ::setenv("SPELLCHECK_STREAM_PIECE_BYTES", "4096", 1);
  ::setenv("SPELLCHECK_CHANNEL_WEIGHTS", "prior_weight=0.5", 1);
  ::unsetenv("SPELLCHECK_FAULT");
  CHECK(settings::ranks_per_node() == 4);
  CHECK_FALSE(settings::test_hooks::max_message_bytes().has_value());
  CHECK(settings::test_hooks::stream_piece_bytes() == size_t{4096});
  CHECK(std::string(settings::channel_weights()) == "prior_weight=0.5");
  CHECK(settings::test_hooks::fault() == nullptr);

  ::setenv("SLURM_NODEID", "3", 1);
  CHECK(settings::slurm_node_id() == 3L);
  for (const char* bad : {"", "-1", "x", "3 ", "99999999999999"}) {
    CAPTURE(bad);
    ::setenv("SLURM_NODEID", bad, 1);
    CHECK_FALSE(settings::slurm_node_id().has_value());
  }
  ::setenv("DICPATH", "/a:/b", 1);
  CHECK(settings::dicpath() == "/a:/b");
  ::unsetenv("DICPATH");
  CHECK(settings::dicpath().empty());
}
