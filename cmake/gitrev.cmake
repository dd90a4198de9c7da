# Writes OUT, a header defining COW_GIT_REV: `git describe --always
# --dirty` of SRC when it is a git checkout, "" otherwise (a release
# tarball, an exported tree, no git). Run at every build; the header is
# rewritten only when the revision changed, so nothing else rebuilds.
set(rev "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE rev ERROR_QUIET RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    set(rev "")
  endif()
endif()
set(text "/* written by cmake/gitrev.cmake */\n#define COW_GIT_REV \"${rev}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
