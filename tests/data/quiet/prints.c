/* prints.c -- a fixture for app_quiet.sh: every line below is one
 * violation it must find (a comment naming stdout does not count). */
#include <stdio.h>

void shout(const char *s);

void shout(const char *s)
{
    printf("%s\n", s);
    fputs(s, stderr);
    puts(s);
}
