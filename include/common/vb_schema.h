#ifndef VB_SCHEMA_H
#define VB_SCHEMA_H

/* The CSV columns and JSON keys, named once for the writers and `vbench report`. */

/* The CSV columns, in the order they are written. */
enum vb_col {
	VB_COL_LABEL, VB_COL_RUN, VB_COL_BYTES, VB_COL_SECS, VB_COL_BPS, VB_COL_BS,
	VB_COL_COUNT, VB_COL_SOURCE, VB_COL_DIRECT, VB_COL_SYNC, VB_COL_FS, VB_COL_DEVICE,
	VB_COL_DRIVER, VB_COL_HOST, VB_COL_OS, VB_COL_KERNEL, VB_COL_MOUNT,
	VB_COL_LOGICAL_BLOCK, VB_COL_PHYSICAL_BLOCK, VB_COL_RAM, VB_COL_WARMUP,
	VB_COL_PARTIAL, VB_COL_STATUS, VB_COL_WRITE_SECS, VB_COL_SYNC_SECS, VB_COL_LAT_P50,
	VB_COL_LAT_P90, VB_COL_LAT_P99, VB_COL_LAT_P999, VB_COL_LAT_MAX, VB_COL_INTERVALS,
	VB_COL_QD, VB_COL_DATA_WAIT, VB_COL_SCHEMA,
	VB_COL_KNEE_BURST, VB_COL_KNEE_SUSTAINED, VB_COL_KNEE_AT,
	VB_COL_FLUSH_VERDICT, VB_COL_FLUSH_P50, VB_COL_FLUSH_P99, VB_COL_FLUSH_WRITE_P50,
	VB_COL_FLUSH_DIFF_LO, VB_COL_FLUSH_DIFF_HI, VB_COL_FLUSH_CALLS, VB_COL_WRITE_CACHE, VB_COL_IO,
	VB_COL_SESSION, VB_COL_SESSION_START,
	VB_N_COLS
};

/* The name of each column, indexed by enum vb_col. */
extern const char *const vb_csv_names[VB_N_COLS];

/* The columns `vbench report` needs in a CSV file. */
#define VB_CSV_REQUIRED 5   /* label, run, bytes, secs, bytes_per_sec: the first five */

/* "schema_version" in JSON and CSV: up when a field changes meaning or goes away (new
 * ones are added without it; readers select by name). Older files have none (0). */
#define VB_SCHEMA_VERSION 1

/* JSON keys. Macros, so that writers can paste them into format strings. */
#define VB_JK_SCHEMA "schema_version"
#define VB_JK_VERSION "vbench_version"
#define VB_JK_LABEL "label"
#define VB_JK_SESSION "session"          /* the invocation: 16 hex digits, random */
#define VB_JK_SESSION_START "session_start"   /* when it started: "2026-12-02T10:40:12Z" */
#define VB_JK_CONFIG "config"
#define VB_JK_ENV "environment"
#define VB_JK_RUNS "runs"
#define VB_JK_SUMMARY "summary"
#define VB_JK_WARNINGS "warnings"
#define VB_JK_RUN "run"
#define VB_JK_WARMUP "warmup"
#define VB_JK_PARTIAL "partial"
#define VB_JK_STATUS "status"
#define VB_JK_BYTES "bytes"
#define VB_JK_SECS "secs"
#define VB_JK_BPS "bytes_per_sec"
#define VB_JK_FS "fs"
#define VB_JK_DRIVER "driver"
#define VB_JK_QD "qd"

#endif
