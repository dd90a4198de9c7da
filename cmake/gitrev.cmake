# Writes OUT, a header defining COW_GIT_REV: `git describe --always
# --dirty` of SRC when it is a git checkout, "" otherwise (a release
# tarball, an exported tree, no git). Run at every build; the header is
# rewritten only when the revision changed, so nothing else rebuilds.
set(rev "")
find_package(Git QUIET)
if(GIT_FOUND)
  # Only SRC's own checkout: a tarball unpacked inside another repository
  # must not take that repository's revision.
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top ERROR_QUIET RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(src_real ${SRC} REALPATH)
  if(rc EQUAL 0 AND top)
    get_filename_component(top ${top} REALPATH)
  endif()
  if(rc EQUAL 0 AND top STREQUAL src_real)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} describe --always --dirty --abbrev=12
                    OUTPUT_VARIABLE rev ERROR_QUIET RESULT_VARIABLE rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      set(rev "")
    endif()
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
