/* report_answers.h -- the workbook's first sheets: the answer per run
 * (answer.h) and the inputs that did not land whole (inputs.h), the same
 * decisions summary.md writes, quantiles in the one format (quant.h). */
#ifndef COW_APP_REPORT_ANSWERS_H
#define COW_APP_REPORT_ANSWERS_H

#include "answer.h"
#include "inputs.h"
#include "table.h"

/* Add sheet "Answers" (one row per run, first in tab order) and, when in
 * holds any, sheet "Inputs" (second). */
int report_answers_sheets(cow_workbook *wb, const app_answers *a, const app_inputs *in,
                          cow_err *e);

#endif
