#include "vb_schema.h"

const char *const vb_csv_names[VB_N_COLS] = {
	[VB_COL_LABEL] = "label", [VB_COL_RUN] = "run", [VB_COL_BYTES] = "bytes",
	[VB_COL_SECS] = "secs", [VB_COL_BPS] = "bytes_per_sec", [VB_COL_BS] = "bs",
	[VB_COL_COUNT] = "count", [VB_COL_SOURCE] = "source", [VB_COL_DIRECT] = "direct",
	[VB_COL_SYNC] = "sync", [VB_COL_FS] = "fs", [VB_COL_DEVICE] = "device",
	[VB_COL_DRIVER] = "driver", [VB_COL_HOST] = "host", [VB_COL_OS] = "os",
	[VB_COL_KERNEL] = "kernel", [VB_COL_MOUNT] = "mount",
	[VB_COL_LOGICAL_BLOCK] = "logical_block", [VB_COL_PHYSICAL_BLOCK] = "physical_block",
	[VB_COL_RAM] = "ram_bytes", [VB_COL_WARMUP] = "warmup", [VB_COL_PARTIAL] = "partial",
	[VB_COL_STATUS] = "status", [VB_COL_WRITE_SECS] = "write_secs",
	[VB_COL_SYNC_SECS] = "sync_secs", [VB_COL_LAT_P50] = "lat_p50_ns",
	[VB_COL_LAT_P90] = "lat_p90_ns", [VB_COL_LAT_P99] = "lat_p99_ns",
	[VB_COL_LAT_P999] = "lat_p999_ns", [VB_COL_LAT_MAX] = "lat_max_ns",
	[VB_COL_INTERVALS] = "interval_bytes_per_sec", [VB_COL_QD] = "qd",
	[VB_COL_DATA_WAIT] = "data_wait_secs",
	[VB_COL_SCHEMA] = "schema_version",
};
