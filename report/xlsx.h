/* xlsx.h -- write a cow_workbook (table.h) as an Excel .xlsx file.
 *
 *     cow_workbook *wb = table_book_new(now_s);     pinned date, see table.h
 *     ... fill sheets ...
 *     if (xlsx_write(wb, "out/report.xlsx", &e) != 0) report e
 *     table_book_free(wb);
 *
 * One worksheet per sheet, in order: an optional bold title row, a header
 * row (bold, bottom border, "name (unit)"), the data rows, then the native
 * chart to the right of the table. Output is byte-stable: the same workbook
 * and created date give the same bytes (libxlsxwriter pins the zip dates).
 *
 * How cells are written:
 * - text is always a string cell (worksheet_write_string): "=1+2", "+x",
 *   "-1" or "@a" are shown as typed and never evaluated. Text longer than
 *   Excel's 32767 characters is cut and ends with "[truncated]".
 * - numbers use the column's format class; NaN and +-Inf leave the cell
 *   empty, which charts draw as a gap (a text such as "NaN", or #N/A, is
 *   plotted as 0 by LibreOffice). The workbook holds no formula at all.
 * - integers up to 2^53 in magnitude are numbers (exact: libxlsxwriter
 *   prints 16 significant digits); larger ones become their decimal text.
 * - COW_COLFMT_TIME_US cells hold UTC epoch microseconds and are written as
 *   Excel date serials (days since 1899-12-30) shown "yyyy-mm-dd
 *   hh:mm:ss.000". A serial with 16 digits is exact to about 1 us; a caller
 *   that needs the exact microsecond adds a COW_COLFMT_INT column.
 * - a chart whose sheet has no data rows is left out (nothing to draw).
 * - images (table_add_image) are copied into the file byte for byte, each
 *   at its cell, scaled, with its caption as a bold string cell just above
 *   and as alt text (else the file's base name). Each PNG is opened and its
 *   header checked before libxlsxwriter sees it (which would print a
 *   warning): a missing or unreadable file is COW_EIO and a file that is
 *   not a PNG COW_EPARSE, the message naming the PNG (e->path stays the
 *   workbook). A caption landing on the title, a header or data cell, or
 *   another caption is COW_EUSAGE. The PNGs must stay in place until
 *   xlsx_write() returns.
 *
 * This header exposes no libxlsxwriter type: only report/ includes
 * xlsxwriter.h. Nothing is printed: every lxw_error becomes a cow_err. */
#ifndef COW_REPORT_XLSX_H
#define COW_REPORT_XLSX_H

#include <stdint.h>

#include "err.h"
#include "table.h"

/* Write wb to path. The file is assembled under a temporary name in the
 * same folder and renamed over path at the end, so a failure never leaves
 * a half-written workbook (nor removes an older one). Returns 0, or
 * COW_EIO (cannot create or rename the file, or read an image: e->path is
 * path, e->msg says why and what to do), COW_EPARSE (an image is not a
 * PNG), COW_EUSAGE (a caption cell is taken), COW_ELIMIT (a sheet exceeds
 * Excel's grid) or COW_EINTERNAL (libxlsxwriter refused a value). wb is
 * not modified. */
int xlsx_write(const cow_workbook *wb, const char *path, cow_err *e);

/* Excel (1900 date system) serial of UTC epoch microseconds: whole days
 * since 1899-12-30 plus the fraction of the day. Computed from the integer
 * day and remainder so the double is as close as it can be (within 0.32 us
 * until 2079). Meaningful from 1900-03-01 on. */
double xlsx_serial_from_us(int64_t us);

/* The version of libxlsxwriter in use ("1.1.5"; static storage). */
const char *xlsx_lib_version(void);

#endif
