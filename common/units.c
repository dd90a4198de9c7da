/* units.c -- the unit tables (units.h). */
#include "units.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    double us;
} time_units[] = {
    {"ns", 1e-3}, {"nanos", 1e-3}, {"nsec", 1e-3}, {"nanoseconds", 1e-3},
    {"us", 1.0}, {"usec", 1.0}, {"micros", 1.0}, {"microseconds", 1.0},
    {"µs", 1.0},
    {"ms", 1e3}, {"msec", 1e3}, {"millis", 1e3}, {"milliseconds", 1e3},
    {"s", 1e6}, {"sec", 1e6}, {"secs", 1e6}, {"seconds", 1e6},
};

static const struct {
    const char *name;
    double bytes;
} mem_units[] = {
    {"bytes", 1}, {"byte", 1}, {"b", 1}, {"kb", 1024}, {"kib", 1024},
    {"k", 1024}, {"mb", 1048576}, {"mib", 1048576}, {"m", 1048576},
    {"gb", 1073741824.0}, {"gib", 1073741824.0}, {"g", 1073741824.0}};

double unit_time_us(const char *name, size_t n)
{
    size_t i;
    for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
        if (strlen(time_units[i].name) == n && strncmp(time_units[i].name, name, n) == 0)
            return time_units[i].us;
    return 0;
}

double unit_mem_bytes(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof(mem_units) / sizeof(mem_units[0]); i++)
        if (strcasecmp(mem_units[i].name, name) == 0)
            return mem_units[i].bytes;
    return 0;
}
