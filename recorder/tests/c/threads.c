/* Four threads record at once into their own files while the main thread,
 * not recording, runs the same macros: recording is per thread.
 * Usage: threads DIR (writes DIR/thread-N.cspace). */
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define EVENTS 5000

static const char *dir;

static void work(double id) {
    int i;
    for (i = 0; i < EVENTS; ++i) {
        CSPACE_VALUE("id", id);
        if (i % 100 == 0) CSPACE_PAUSE("step");
    }
}

static void *run(void *arg) {
    char path[512];
    int id = (int)(size_t)arg;
    snprintf(path, sizeof path, "%s/thread-%d.cspace", dir, id);
    if (cspace_begin_file(path) != CSPACE_OK) return (void *)1;
    work(id);
    return (void *)(size_t)cspace_end(NULL);
}

int main(int argc, char **argv) {
    pthread_t t[THREADS];
    size_t i;
    int failed = 0;
    if (argc < 2) return 2;
    dir = argv[1];
    for (i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, run, (void *)i);
    work(-1); /* not recording: goes nowhere */
    for (i = 0; i < THREADS; ++i) {
        void *result;
        pthread_join(t[i], &result);
        failed |= result != NULL;
    }
    printf("recording on main: %d\n", cspace_is_recording());
    return failed;
}
