/* termsafe.h -- a filter in front of stdout and stderr: every byte goes
 * through label_safe_n(COW_LABEL_TEXT), so a control character in a
 * folder name is shown as \xNN and invalid UTF-8 as U+FFFD. The command
 * line installs it once, first thing in main(). */
#ifndef COW_COMMON_TERMSAFE_H
#define COW_COMMON_TERMSAFE_H

#include <stdio.h>

/* Put the filter in front of stdout and stderr. */
void term_safe_streams(void);
/* stderr without the filter, for the progress line's own escapes. */
FILE *term_raw_stderr(void);
/* stdout without the filter (to check it was written). */
FILE *term_raw_stdout(void);

#endif
