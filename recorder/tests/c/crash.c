/* Records to a file and aborts mid-query: every complete event must survive.
 * Usage: crash OUT.cspace N */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    int i, n;
    if (argc < 3) return 2;
    n = atoi(argv[2]);
    cspace_begin_file(argv[1]);
    for (i = 0; i < n; ++i) {
        CSPACE_VALUE("i", (double)i);
        CSPACE_TEXT("event %d", i);
    }
    abort();
}
