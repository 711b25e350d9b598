#ifndef TWEETIEDB_CLMDB_SHIM_H
#define TWEETIEDB_CLMDB_SHIM_H
// The system's LMDB (Debian: liblmdb-dev). Nothing is vendored.
#include <lmdb.h>
#endif
