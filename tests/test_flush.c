/* The flush verdict over synthetic figures, and the probe over the fake system calls:
 * what it opens, what it calls, what it counts, and what it concludes. */
#include "vb_test.h"
#include <stdlib.h>
#include <string.h>
#include "fake_io.h"
#include "common/vb_flushverdict.h"
#include "bench/vb_flushprobe.h"
#include "os/vb_os.h"

/* A result holding the pairs given, as the probe records them. */
static struct vb_flush_result pairs(const uint64_t *flush, const uint64_t *write, size_t n)
{
	struct vb_flush_result r;

	memset(&r, 0, sizeof r);
	r.call = VB_CALL_FSYNC;
	r.write_bytes = 4096;
	r.samples = n;
	memcpy(r.flush_ns, flush, n * sizeof *flush);
	memcpy(r.write_ns, write, n * sizeof *write);
	vb_flush_decide(&r);
	return r;
}

#define PAIRS(f, w) pairs((f), (w), sizeof(f) / sizeof *(f))

/* Recorded: vbench --force --direct --check-flush -f json bs=1M count=4 runs=1 on a loop
 * device over a file on a tmpfs (Linux 6.18, this project's build machine): an fsync
 * costs 1.3-1.7 us more than a 4 KiB write; nothing is persisted. */
static const uint64_t tmpfs_flush[] = {
	18304, 14076, 15058, 15780, 15669, 14748, 14808, 14678, 14688, 14607, 14667, 14617,
	15038, 14648, 14738, 14547, 14587, 14657, 14598, 14577, 14657, 14637, 14567, 14547,
	14688, 14568, 14698, 14617, 14708, 14597, 14617, 14527, 15118, 23904, 40987, 18414,
	19998, 14928, 14808, 15258, 14707, 14558, 14648, 14787, 14597, 14578, 14667, 14757,
	22002, 25337, 16311, 14798, 16121, 12784, 14687, 14758, 14748, 15038, 14657, 14548,
	14728, 14587, 14617, 14567};
static const uint64_t tmpfs_write[] = {
	18686, 13406, 12894, 13315, 13215, 13486, 13074, 13265, 12984, 13185, 13225, 13255,
	33002, 13154, 18645, 13665, 13265, 13505, 13294, 13265, 13836, 13115, 13325, 13336,
	14076, 13255, 13625, 13615, 14127, 13445, 14196, 13214, 13576, 21690, 15398, 15379,
	16591, 13175, 13175, 13124, 13686, 12944, 13205, 12965, 13575, 13195, 12804, 13104,
	13596, 19367, 17693, 13195, 14387, 11170, 11060, 13085, 13696, 13084, 13004, 12774,
	13716, 12924, 12834, 12924};

static void test_recorded_tmpfs_does_no_work(void **state)
{
	(void)state;
	struct vb_flush_result r = PAIRS(tmpfs_flush, tmpfs_write);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(r.diff_lo_ns > 0 && r.diff_hi_ns < 5000);
	assert_true(r.diff_lo_ns <= r.diff_p50_ns && r.diff_p50_ns <= r.diff_hi_ns);
	assert_true(r.confidence >= VB_FLUSH_CONFIDENCE && r.confidence < 1);
	/* the medians of each, for the CSV columns */
	assert_int_equal(r.flush_p50_ns, 14688);
	assert_int_equal(r.write_p50_ns, 13265);
	/* The same device, its first 16 pairs (the short probe): still decided. */
	r = pairs(tmpfs_flush, tmpfs_write, 16);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
}

/* Recorded in a QEMU guest (TCG, Linux 6.1, virtio-blk) over raw images on the host's
 * ext4 disk, one per cache mode, by make vmtest with VMTEST_FLUSH_FORMAT=json (vbench
 * --force --direct --check-flush -f json -b 1M -c 12 -r 1 /dev/vdX); QMP counted the
 * host's flushes: unsafe 10 us each, none 1.4 ms (fdatasync), writeback 1.7 ms,
 * writethrough none at all (the guest sends none); and nbdkit's disk whose writes take
 * 1 ms and flushes 1.3 ms. */
static const uint64_t unsafe_flush[] = {
	140766, 136237, 136867, 156414, 155012, 126087, 185389, 137459, 177475, 127581,
	150354, 237858, 124695, 138531, 122531, 124184, 122320, 121599, 235293, 131077,
	121519, 127180, 122661, 119205, 121539, 117752, 160572, 164770, 166634, 193474,
	131438, 131337, 123412, 123883, 125817, 150443, 130446, 165963, 145635, 121268,
	147188, 149001, 142358, 172175, 124044, 122201, 123753, 120647, 123823, 154772,
	145714, 464305, 123072, 117933, 145624, 125266, 132961, 220556, 154842, 126809,
	125817, 122741, 151405, 125116};
static const uint64_t unsafe_write[] = {
	272995, 222379, 186100, 242878, 178927, 158759, 727591, 189186, 204396, 168788,
	172625, 195258, 170562, 195899, 177265, 157286, 235283, 167265, 175000, 193454,
	174769, 180690, 193445, 185850, 199215, 167756, 242547, 5747650, 445469, 230094,
	341283, 177405, 189547, 178196, 192793, 179468, 191120, 256613, 210758, 171113,
	182664, 174168, 168849, 217219, 265710, 182634, 189837, 165622, 236074, 177715,
	165782, 221157, 211178, 3364469, 244140, 188706, 2086401, 206559, 183626, 177895,
	181602, 183696, 182784, 4920331};
static const uint64_t writeback_flush[] = {
	751366, 449207, 927678, 496064, 565866, 8144125, 690641, 561698, 600852, 457653,
	461840, 409031, 567679, 412276, 506965, 685211, 487609, 393481, 456320, 387701,
	729204, 419381, 495945, 520291, 538054, 433877, 445860, 425992, 685512, 471979,
	442163, 360639, 627622, 425802, 563552, 595362, 696101, 584321, 836276, 612425,
	1018298, 544556, 833932, 504811, 1056711, 6761110, 785330, 599821, 646178, 598548,
	709978, 577218, 908883, 752758, 607054, 570996, 689189, 479784, 3546623, 544947,
	452893, 411185, 505673, 406616};
static const uint64_t writeback_write[] = {
	391578, 7885858, 2398449, 242567, 237177, 703856, 277393, 356000, 296188, 226316,
	258437, 252245, 390666, 256663, 321446, 325743, 220956, 213422, 233600, 240223,
	340522, 217249, 208292, 233209, 397259, 226266, 239270, 233740, 314112, 240193,
	191180, 229432, 219854, 229793, 268516, 372322, 212320, 331535, 256393, 349168,
	257155, 402047, 1600265, 6519824, 1113548, 836667, 314292, 337766, 365669, 266522,
	228381, 240574, 6697219, 398310, 354258, 405354, 285167, 247356, 1974340, 265280,
	197162, 214755, 247346, 459796};
static const uint64_t none_flush[] = {
	907710, 4035994, 535669, 263907, 654142, 6938503, 6980583, 571997, 6677561, 7474042,
	4844078, 5542052, 5156576, 790359, 408269, 1347309, 3197876, 3689001, 2779236,
	7659241, 587206, 328479, 6007229, 1297504, 739925, 5955450, 727671, 1667963, 510521,
	6172410, 726569, 2553892, 10090271, 3777537, 639004, 386929, 449086, 338628, 356712,
	313761, 447283, 295667, 351563, 331294, 464225, 310977, 3787927, 539216, 433377,
	946433, 2149590, 434259, 375498, 289215, 6470051, 668540, 361351, 310295, 719475,
	425392, 438256, 266983, 357564, 763648};
static const uint64_t none_write[] = {
	655244, 9856330, 580684, 12456309, 3943560, 457952, 304103, 304684, 245983, 688206,
	285427, 654193, 317389, 318480, 289726, 418880, 262164, 583680, 303212, 570414,
	310556, 1644959, 5876753, 919663, 954168, 4061663, 560085, 390616, 333328, 4336721,
	658069, 505152, 348837, 687666, 369145, 353507, 288193, 275409, 263887, 265090,
	341483, 288484, 263667, 273085, 516934, 294374, 412909, 314382, 282181, 450048,
	543664, 305807, 297931, 242016, 240984, 321516, 261142, 259649, 8601306, 308151,
	249510, 258477, 232589, 390135};
static const uint64_t writethrough_flush[] = {
	14197, 13325, 11582, 10781, 19196, 12925, 12223, 13065, 13976, 16030, 14087, 14588,
	13726, 14257, 16140, 14016, 9427, 13776, 21151, 14287, 15580, 13105, 9809, 9307, 8597,
	8807, 13926, 13646, 13506, 13565, 17553, 13245, 9618, 47349, 14858, 14087, 16812,
	13626, 15550, 27542, 16271, 13686, 13676, 13225, 15910, 13185, 20769, 20619, 10870,
	14096, 9779, 8917, 9418, 8807, 13144, 8987, 8546, 12323, 9017, 12694, 14317, 12263,
	9157, 15770};
static const uint64_t writethrough_write[] = {
	917378, 751826, 485073, 517615, 564835, 717272, 826718, 781682, 929992, 564413,
	616572, 641038, 597877, 978464, 595752, 566968, 517596, 647110, 563892, 649253,
	575885, 565245, 535990, 469825, 452913, 385567, 495504, 693006, 587587, 573792,
	752367, 601333, 583239, 859630, 595742, 573571, 536892, 607726, 601894, 822429,
	507266, 586636, 748200, 575303, 534167, 1919507, 1245457, 531531, 431523, 504611,
	615129, 428668, 492217, 429188, 423177, 410002, 415783, 469073, 396327, 590653,
	586816, 500954, 463844, 458023};
static const uint64_t nbd_delay_flush[] = {
	1896653, 1706275, 1851959, 1830499, 1838223, 1702769, 1708920, 1667863, 1897234,
	1676980, 1952379, 1686729, 1620042, 3797194, 1816493, 1683512, 1708779, 1747462,
	1644539, 1645260, 1788730, 1637195, 1639029, 1679916, 1815321, 1668955, 1619151,
	1703399, 1650390, 1636553, 1676128, 1660509, 1790262, 1680125, 1617217, 1641694,
	1616977, 1626244, 1635982, 2717981, 2827358, 2025647, 1793489, 1654768, 1634179,
	1614602, 1667101, 1615764, 2313800, 1769024, 1667742, 1631083, 1857921, 1898107,
	1739788, 1841259, 1801063, 1812836, 1787307, 1897635, 5455469, 1854464, 1995069,
	1961797};
static const uint64_t nbd_delay_write[] = {
	1730822, 1411189, 1397924, 1690766, 1505637, 1388346, 1717556, 1414325, 1435074,
	1415006, 1406229, 1970332, 1428000, 1551984, 1552995, 1433210, 1553227, 1428481,
	1406670, 1404356, 1354983, 1360583, 1351306, 1426107, 1422190, 1398976, 1390080,
	1539962, 1351997, 28091158, 1507490, 1415467, 1351256, 1400288, 1382074, 3166516,
	1373178, 1440665, 1343601, 1561502, 1376604, 1613941, 1324555, 1398916, 1312122,
	1331860, 1352378, 8721252, 1897004, 2609707, 1388987, 3762128, 1560239, 1746551,
	1458067, 1618750, 1683792, 1616095, 1537126, 1569708, 1592541, 1633728, 16945338,
	1924195};

static void test_recorded_qemu_cache_modes(void **state)
{
	(void)state;
	/* unsafe: a flush is a round trip with no data, cheaper than a write */
	struct vb_flush_result r = PAIRS(unsafe_flush, unsafe_write);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(r.diff_hi_ns < 0);
	/* writeback and none: the host's fdatasync, a few hundred us over the write */
	r = PAIRS(writeback_flush, writeback_write);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_true(r.diff_lo_ns > 100000);
	r = PAIRS(none_flush, none_write);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_true(r.diff_lo_ns > 50000);
	/* writethrough: the guest sends no flush, so fsync costs microseconds */
	r = PAIRS(writethrough_flush, writethrough_write);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(r.flush_p50_ns < 50000);
	/* 0.3 ms more for a flush than for a write: work */
	r = PAIRS(nbd_delay_flush, nbd_delay_write);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_true(r.diff_lo_ns > 150000 && r.diff_hi_ns < 450000);
	/* The short probe's 16 pairs of each row decide alike. */
	assert_int_equal(pairs(unsafe_flush, unsafe_write, 16).verdict, VB_FLUSH_NO_WORK);
	assert_int_equal(pairs(writeback_flush, writeback_write, 16).verdict, VB_FLUSH_WORKS);
	assert_int_equal(pairs(writethrough_flush, writethrough_write, 16).verdict,
			 VB_FLUSH_NO_WORK);
}

/* Recorded (F1 of the attack on issue 33): vbench --force --check-flush -f json -b 4k
 * -c 16 -r 1 on a direct-io loop device over a qemu-storage-daemon FUSE export of an
 * nbdkit file disk with --filter=delay delay-write=10ms (this build machine, Linux 6.18):
 * every write waits 10 ms; every flush is nbdkit's real fdatasync of its image, about
 * 1 ms. The first 64 pairs. */
static const uint64_t writedelay_flush[] = {
	7671084, 4027342, 3801669, 8721995, 2310052, 11726339, 872687, 930906, 923602, 4640702,
	1161959, 810991, 1346064, 6696688, 1074004, 4850104, 4128081, 5760441, 3071549,
	1361774, 3251717, 2577323, 2717977, 777548, 3936381, 8490571, 2037070, 897673, 762801,
	779912, 624330, 601688, 776146, 1187186, 1203046, 756930, 560421, 12259779, 3812328,
	2141625, 1413480, 708088, 1624406, 1683607, 834024, 936266, 700484, 681829, 5862473,
	551725, 5041644, 806261, 895450, 4578906, 748012, 749555, 4352211, 1636949, 677510,
	737643, 793137, 3152761, 618160, 1297653};
static const uint64_t writedelay_write[] = {
	12375085, 13155539, 10511581, 10785373, 14105490, 10781937, 10560893, 10564109,
	10599204, 10553789, 10503716, 10399601, 10489690, 10457630, 10517171, 10488477,
	10602140, 10503846, 10552578, 11929700, 16683774, 11175566, 10663415, 10627287,
	10442611, 10487996, 12706907, 15223997, 10434126, 10346952, 10379212, 10345920,
	10382839, 10446088, 11637953, 10360087, 10368503, 10369934, 10379182, 10431300,
	10452209, 10373311, 13595182, 10351951, 10416863, 11047365, 10446168, 10365105,
	10382198, 10383209, 10527450, 10573366, 10504237, 11731739, 10511651, 10326944,
	12624462, 10332715, 10409960, 10508175, 10430188, 10445647, 10461767, 10649659};

/* A write that costs far more than a flush is no yardstick for the flush's round trip:
 * the difference lies below the margin however much work the flush does, so the
 * verdict cannot tell, and says why; never "no work". */
static void test_write_dearer_than_flush_is_no_yardstick(void **state)
{
	char text[1024];
	(void)state;
	struct vb_flush_result r = PAIRS(writedelay_flush, writedelay_write);
	assert_true(r.diff_hi_ns < 0);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_true(r.confidence >= VB_FLUSH_CONFIDENCE);
	assert_non_null(strstr(r.why, "a write costs 8x a flush here, so it is no yardstick"));
	assert_int_equal(vb_flush_text(&r, text, sizeof text), 1);
	assert_string_equal(text, "flush (fsync): cannot tell: flush 1.3 ms, 4 KiB write 10.5 "
			    "ms (medians, 64 pairs): a write costs 8x a flush here, so it is no "
			    "yardstick; not proven durable");
	assert_true(strlen(text) <= 158);
	/* the short probe's 16 pairs alike */
	assert_int_equal(pairs(writedelay_flush, writedelay_write, 16).verdict,
			 VB_FLUSH_UNDECIDED);
	/* The rule at its edges: a flush half a write's cost is compared with it; one under
	 * the margin does no work whatever a write costs (a flush the guest never sends). */
	uint64_t w8[8] = {400000, 400000, 400000, 400000, 400000, 400000, 400000, 400000};
	uint64_t f8[8] = {200000, 200000, 200000, 200000, 200000, 200000, 200000, 200000};
	assert_int_equal(PAIRS(f8, w8).verdict, VB_FLUSH_NO_WORK);
	for (int i = 0; i < 8; i++)
		f8[i] = 199000;
	r = PAIRS(f8, w8);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "2x a flush"));
	for (int i = 0; i < 8; i++)
		f8[i] = 19000;
	assert_int_equal(PAIRS(f8, w8).verdict, VB_FLUSH_NO_WORK);
	assert_true(vb_flush_yardstick(19999, 19999, 10000000));
	assert_false(vb_flush_yardstick(20000, 20000, 10000000));
	assert_true(vb_flush_yardstick(19999, 30000, 10000000));
	assert_false(vb_flush_yardstick(20000, 30000, 10000000));
	assert_true(vb_flush_yardstick(500000, 500000, 1000000));
	assert_false(vb_flush_yardstick(499000, 499000, 1000000));
}

/* A loaded machine only adds time: the write-through guest's flushes (which it never
 * sends) with 15 us of load on seven in eight of them cost more than the margin at the
 * median, yet the fastest tenth shows the flush goes nowhere: still "no work". The same
 * load on every flush leaves no evidence, and the verdict cannot tell. */
static void test_loaded_flush_judged_by_its_fastest(void **state)
{
	uint64_t f[sizeof writethrough_flush / sizeof *writethrough_flush];
	(void)state;
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		f[i] = writethrough_flush[i] + (i % 8 ? 15000 : 0);
	struct vb_flush_result r = PAIRS(f, writethrough_write);
	assert_true(r.flush_p50_ns > VB_FLUSH_MARGIN_NS);
	assert_true(r.flush_p10_ns < VB_FLUSH_MARGIN_NS);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		f[i] = writethrough_flush[i] + 15000;
	r = PAIRS(f, writethrough_write);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "so it is no yardstick"));
	/* the write-delayed disk's fastest flush is far above the margin: never "no work" */
	assert_true(PAIRS(writedelay_flush, writedelay_write).flush_p10_ns > 10 * VB_FLUSH_MARGIN_NS);
}

/* On a copy-on-write file system a flush that takes time may be the file system's own
 * metadata: cannot tell, saying so within the two lines; no work stays no work. */
static void test_copy_on_write_cannot_tell(void **state)
{
	char text[1024];
	(void)state;
	struct vb_flush_result r = PAIRS(writeback_flush, writeback_write);
	r.call = VB_CALL_FDATASYNC;
	vb_flush_own_metadata(&r, "bcachefs");
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_int_equal(vb_flush_text(&r, text, sizeof text), 1);
	assert_non_null(strstr(text, "flush (fdatasync): cannot tell: bcachefs syncs its own "
				     "metadata (copy on write): +"));
	assert_non_null(strstr(text, "over a 4 KiB write; measure the disk or ext4/xfs; not "
				     "proven durable"));
	assert_true(strlen(text) <= 158);
	/* the longest figure span() makes still fits */
	r.diff_p50_ns = 999999999;
	r.verdict = VB_FLUSH_WORKS;
	vb_flush_own_metadata(&r, "bcachefs");
	vb_flush_text(&r, text, sizeof text);
	assert_true(strlen(text) <= 158);
	r = PAIRS(unsafe_flush, unsafe_write);
	vb_flush_own_metadata(&r, "btrfs");
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(vb_fs_copy_on_write("btrfs") && vb_fs_copy_on_write("zfs") &&
		    vb_fs_copy_on_write("bcachefs") && vb_fs_copy_on_write("hammer") &&
		    vb_fs_copy_on_write("hammer2"));
	assert_false(vb_fs_copy_on_write("ext4") || vb_fs_copy_on_write("xfs") ||
		     vb_fs_copy_on_write("ufs") || vb_fs_copy_on_write("none"));
}

/* The interval, not the median, decides: pairs whose median is well over the margin
 * but whose interval reaches under it cannot tell; and the same differences, more of
 * them, do decide. */
static void test_interval_decides(void **state)
{
	(void)state;
	/* 8 pairs: the interval of 8 is the smallest to the largest difference. */
	uint64_t w8[8] = {500000, 500000, 500000, 500000, 500000, 500000, 500000, 500000};
	uint64_t f8[8] = {910000, 880000, 510000, 900000, 950000, 870000, 890000, 920000};
	struct vb_flush_result r = PAIRS(f8, w8);
	assert_true(r.diff_p50_ns > 300000);
	assert_int_equal(r.diff_lo_ns, 10000);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	f8[2] = 530000;   /* now all 8 lie 30 us or more above */
	r = PAIRS(f8, w8);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	/* A flush at most 15 us dearer than its write, 8 times: no work. */
	uint64_t g8[8] = {515000, 510000, 505000, 512000, 500000, 495000, 514000, 505000};
	r = PAIRS(g8, w8);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	/* 7 pairs, however clear, make no 99% interval: cannot tell, and says why. */
	r = pairs(f8, w8, 7);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_true(r.confidence == 0);
	assert_non_null(strstr(r.why, "7 pairs are too few"));
	/* A failed probe keeps its reason and verdict. */
	struct vb_flush_result z;
	memset(&z, 0, sizeof z);
	snprintf(z.why, sizeof z.why, "the probe's sync failed");
	z.verdict = VB_FLUSH_UNDECIDED;
	vb_flush_decide(&z);
	assert_string_equal(z.why, "the probe's sync failed");
	assert_int_equal(z.verdict, VB_FLUSH_UNDECIDED);
}

/* Every sentence fits in two 80-column lines after "# ", prints the figures it used,
 * and none says durable or safe. */
static void test_texts(void **state)
{
	char text[1024];
	(void)state;
	uint64_t w[8] = {900000000, 900000000, 900000000, 900000000, 900000000, 900000000,
			 900000000, 900000000};
	uint64_t f[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct vb_flush_result rs[4] = {PAIRS(tmpfs_flush, tmpfs_write), PAIRS(w, f),
					PAIRS(f, w), pairs(f, w, 7)};
	rs[1].call = VB_CALL_FDATASYNC;
	const char *want[4] = {"no work", "takes time", "no work", "cannot tell"};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(vb_flush_text(&rs[i], text, sizeof text), 1);
		assert_true(strlen(text) <= 158);
		assert_non_null(strstr(text, want[i]));
		assert_null(strstr(text, " safe"));
		assert_null(strstr(text, "are durable"));
		assert_non_null(strstr(text, "not proven durable"));
	}
	vb_flush_text(&rs[0], text, sizeof text);
	assert_string_equal(text, "flush (fsync): no work: flush - 4 KiB write +1.5 us (99%: "
			    "+1.3 us to +1.7 us, 64 pairs; margin 20 us); ignored, or persisted "
			    "on write: not proven durable");
	struct vb_flush_result none;
	memset(&none, 0, sizeof none);
	assert_int_equal(vb_flush_text(&none, text, sizeof text), 0);
	assert_int_equal(vb_write_cache_text("write through", "/sys/block/vda/queue/write_cache",
					     text, sizeof text), 1);
	assert_non_null(strstr(text, "sends the disk no flushes at all"));
	assert_int_equal(vb_write_cache_text("", "", text, sizeof text), 0);
}

static struct fake f;
static struct vb_io_ops ops;
static struct vb_write_plan plan;

static void probe_setup(void)
{
	memset(&f, 0, sizeof f);
	f.file = fake_reg(1, 2);
	f.named = f.file;
	f.in_use = 0;
	ops = fake_ops(&f);
	memset(&plan, 0, sizeof plan);
	plan.acquire = VB_ACQ_NAMED;
	plan.dirfd = FAKE_DIRFD;
	plan.name = "vbench.tmp";
	plan.id = f.file;
	plan.req.dsync = true;      /* a dsync session: the probe opens without it */
	plan.truncate = true;
}

static void test_probe_on_a_disk_that_ignores_flushes(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 512, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 40000;
	f.sync_ns = 30000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_true(f.req.direct);
	assert_false(f.req.dsync);
	assert_int_equal(f.truncates, 0);
	assert_int_equal(r.samples, 256);
	assert_int_equal(r.flush_p50_ns, 30000);
	assert_int_equal(r.write_p50_ns, 40000);
	assert_int_equal(r.diff_p50_ns, -10000);
	assert_int_equal(r.write_bytes, 4096);
	/* every call the probe says it made was made, and no other */
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
	assert_int_equal(f.fdatasyncs, 0);
	assert_int_equal(r.calls, 256 + 1);   /* the pairs, and the one after the area */
	assert_int_equal(r.bytes, f.written);
	assert_int_equal(f.closes, 1);
}

static void test_probe_on_a_disk_whose_flushes_cost(void **state)
{
	struct vb_flush_probe_cfg c = {false, VB_CALL_FDATASYNC, 0, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 100000;
	f.sync_ns = 400000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_WORKS);
	assert_int_equal(r.samples, 32);
	assert_int_equal(r.diff_lo_ns, 300000);
	assert_int_equal(r.calls, (uint64_t)f.fdatasyncs);
	assert_int_equal(f.fsyncs, 0);
}

/* On a disk the probe opens the device again, direct and without O_DSYNC whatever the
 * runs used, and writes only the bytes the runs wrote. */
static void test_probe_on_a_disk_stays_in_the_runs_bytes(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 512, 65536};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.file.type = VB_FT_BLK;
	f.file.rdev = 7;
	plan.acquire = VB_ACQ_DEVICE;
	plan.name = "loop7";
	plan.held_fd = FAKE_HELD;
	plan.id = f.file;
	plan.req.direct = false;
	plan.truncate = false;
	plan.check_in_use = true;
	f.write_ns = 40000;
	f.sync_ns = 30000;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NO_WORK);
	assert_int_equal(f.opens, 1);
	assert_int_equal(f.dups, 0);
	/* asked whether the disk is in use once, before its second open */
	assert_int_equal(f.in_use_calls, 1);
	assert_false(f.write_open_before_check);
	assert_string_equal(f.opened_name, "loop7");
	assert_true(f.req.direct);
	assert_false(f.req.dsync);
	assert_true(f.size > 0 && f.size <= 65536);
	/* another device under the name is refused, nothing written */
	probe_setup();
	f.file.type = VB_FT_BLK;
	f.file.rdev = 8;
	plan.acquire = VB_ACQ_DEVICE;
	plan.name = "loop7";
	plan.id.type = VB_FT_BLK;
	plan.id.rdev = 7;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_int_equal(f.writes, 0);
	/* something layered on it since: refused, nothing opened or written */
	probe_setup();
	f.file.type = VB_FT_BLK;
	plan.acquire = VB_ACQ_DEVICE;
	plan.held_fd = FAKE_HELD;
	plan.id = f.file;
	plan.check_in_use = true;
	f.in_use = 1;
	f.in_use_text = "mounted on /mnt";
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "mounted on /mnt"));
	assert_int_equal(f.opens, 0);
	assert_int_equal(f.writes, 0);
	/* too little written for two slots: not run */
	probe_setup();
	c.max_bytes = 4096;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
	assert_int_equal(f.writes, 0);
}

/* The short form stops at its budget, and says it would cost too much when the budget
 * does not buy enough pairs. */
static void test_probe_budget(void **state)
{
	struct vb_flush_probe_cfg c = {false, VB_CALL_FSYNC, 0.02, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.write_ns = 100000;
	f.sync_ns = 10000000;   /* 10 ms a flush: two fit in 20 ms */
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
	assert_non_null(strstr(r.why, "more than 1%"));
	assert_true(r.samples < VB_FLUSH_MIN_PAIRS);
	assert_int_equal(r.calls, (uint64_t)f.fsyncs);
}

/* A stop during the probe (a signal, or --timeout) is reported as such, with the flag
 * that stopped it, never as a verdict. */
static void test_probe_stopped(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 4096, 0};
	struct vb_flush_result r;
	atomic_int stop = 0;
	const int flags[2] = {SIGTERM, VB_STOPFLAG_TIMEOUT};
	(void)state;
	for (int i = 0; i < 2; i++) {
		probe_setup();
		atomic_store(&stop, 0);
		plan.stop = &stop;
		f.poke = &stop;
		f.poke_at = 20;
		f.poke_value = flags[i];
		vb_flush_probe(&ops, &plan, &c, &r);
		assert_int_equal(r.verdict, VB_FLUSH_NOT_RUN);
		assert_int_equal(r.stop, flags[i]);
		assert_non_null(strstr(r.why, "stopped"));
		assert_true(r.samples < 256);
	}
	assert_non_null(strstr(r.why, "--timeout"));
}

/* A failure is reported as undecided with the reason, never as a verdict; a file of the
 * probe's own that cannot be removed is named. */
static void test_probe_failures(void **state)
{
	struct vb_flush_probe_cfg c = {true, VB_CALL_FSYNC, 0, 4096, 0};
	struct vb_flush_result r;
	(void)state;
	probe_setup();
	f.open_err = EINVAL;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "direct"));
	probe_setup();
	f.sync_err = EIO;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_non_null(strstr(r.why, "sync failed"));
	assert_int_equal(f.closes, 1);
	probe_setup();
	plan.acquire = VB_ACQ_NEWNAME;
	plan.req.kind = VB_OPEN_CREATE;
	plan.name = "vbench-k3j9x0qa.tmp";
	f.unlink_err = EPERM;
	vb_flush_probe(&ops, &plan, &c, &r);
	assert_int_equal(r.verdict, VB_FLUSH_UNDECIDED);
	assert_string_equal(r.leftover, "vbench-k3j9x0qa.tmp");
	assert_int_equal(r.leftover_err, EPERM);
	assert_int_equal(f.writes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_tmpfs_does_no_work),
		cmocka_unit_test(test_recorded_qemu_cache_modes),
		cmocka_unit_test(test_write_dearer_than_flush_is_no_yardstick),
		cmocka_unit_test(test_loaded_flush_judged_by_its_fastest),
		cmocka_unit_test(test_copy_on_write_cannot_tell),
		cmocka_unit_test(test_interval_decides),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_probe_on_a_disk_that_ignores_flushes),
		cmocka_unit_test(test_probe_on_a_disk_whose_flushes_cost),
		cmocka_unit_test(test_probe_on_a_disk_stays_in_the_runs_bytes),
		cmocka_unit_test(test_probe_budget),
		cmocka_unit_test(test_probe_stopped),
		cmocka_unit_test(test_probe_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
