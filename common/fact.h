/* fact.h -- one observed value and where it came from, so a finding can
 * cite its evidence as file:line. Filled by store/, read by analysis/. */
#ifndef COW_COMMON_FACT_H
#define COW_COMMON_FACT_H

typedef struct cow_fact {
    int known;          /* 0 when the captures do not say */
    double num;         /* numeric value, NaN when not numeric */
    char text[96];      /* value as written */
    char src[200];      /* "path:line" of the evidence, or "" */
} cow_fact;

#endif
