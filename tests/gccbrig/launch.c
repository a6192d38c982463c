/* launch.c: runs one kernel of a gccbrig-built shared object on the host
   CPU, for the differential test crates/hsakit/tests/finalize_gccbrig.rs.

   Usage: launch SO KERNEL GRID GROUP [ARG]...
     SO      gccbrig-11 -O2 -fPIC -shared output
     KERNEL  kernel name, with or without HSAIL's '&'
     GRID    X[,Y[,Z]] work-items;  GROUP  X[,Y[,Z]] work-group size
     ARG     one per kernel argument, in order:
             buf=PATH  a global buffer holding the file's bytes; passed as
                       its 64-bit address and written back to PATH after
                       the run
             u32=V s32=V u64=V s64=V (decimal or 0x hex)  f32=V f64=V
             local=N   N bytes of dynamic group memory (PRM 4.20): passed
                       as its u32 group offset, which starts at the
                       kernel's group segment size rounded up to 16

   Facts used (from GCC's libhsail-rt and BRIG front end; see also
   docs/oracle-facts.md):
   - gccbrig names the launcher of `prog kernel &K` in `module &M`
     "gccbrig.M.K": void launcher (PHSAKernelLaunchData *, void *group_base).
     It runs every work-group of the grid, one work-item at a time (fibers
     when the kernel has barriers).
   - The host fills the launch data's `dp` (a 64-byte HSA kernel dispatch
     packet), `packet_id` and `kernarg_addr`; the runtime fills the rest.
   - A non-loaded ELF section "phsa.desc.gccbrig.M.K" holds a packed
     descriptor: is_kernel u8, group_segment_size u32, private_segment_size
     u32, kernarg_segment_size u32, kernarg_max_align u16, ...
   - Kernel arguments lie in the kernarg segment in order, each at its
     natural alignment; the descriptor's kernarg_segment_size is their end
     rounded up to 16 bytes (checked here).

   Exit status: 0 on success, 2 on a usage or setup error, 3 when the
   kernel stored past the end of a buffer (with a message on stderr).  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t).  */
typedef struct
{
  uint16_t header;
  uint16_t setup; /* dimensions in bits 0..1 */
  uint16_t workgroup_size[3];
  uint16_t reserved0;
  uint32_t grid_size[3];
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  void *kernarg_address;
  uint64_t reserved2;
  uint64_t completion_signal;
} dispatch_packet;

_Static_assert (sizeof (dispatch_packet) == 64, "dispatch packet is 64 bytes");

/* libhsail-rt's PHSAKernelLaunchData: the host sets dp, packet_id and
   kernarg_addr; the runtime owns everything else.  */
typedef struct
{
  dispatch_packet *dp;
  size_t packet_id;
  void *kernel;
  size_t wg_min[3];
  size_t wg_max[3];
  void *wg_start_barrier;
  void *wg_completion_barrier;
  void *wg_sync_barrier;
  size_t group_segment_start_addr;
  void *kernarg_addr;
} launch_data;

typedef void (*launcher_fn) (launch_data *, void *group_base);

/* The fields of phsa.desc.* the host needs.  */
typedef struct
{
  uint32_t group_size;
  uint32_t private_size;
  uint32_t kernarg_size;
  uint16_t kernarg_align;
} descriptor;

/* One kernel argument.  */
typedef struct
{
  const char *path; /* buffers: the file; NULL for scalars */
  unsigned char *data;
  size_t len;
  unsigned char bytes[8]; /* scalars: the value, little-endian */
  size_t size;            /* bytes in the kernarg segment */
} argument;

static void
die (const char *fmt, const char *what)
{
  fprintf (stderr, "launch: ");
  fprintf (stderr, fmt, what);
  fprintf (stderr, "\n");
  exit (2);
}

enum { GUARD = 256, GUARD_BYTE = 0xa5 };

static unsigned char *
read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    die ("cannot open %s", path);
  if (fseek (f, 0, SEEK_END) != 0)
    die ("cannot seek %s", path);
  long n = ftell (f);
  rewind (f);
  /* 256-byte aligned, with at least GUARD bytes of a known pattern after
     the data to catch out-of-bounds stores (the emulator faults on them).  */
  size_t cap = ((size_t) n + 255) / 256 * 256 + GUARD;
  unsigned char *p = aligned_alloc (256, cap);
  if (!p)
    die ("out of memory reading %s", path);
  memset (p, GUARD_BYTE, cap);
  if (n > 0 && fread (p, 1, (size_t) n, f) != (size_t) n)
    die ("cannot read %s", path);
  fclose (f);
  *len = (size_t) n;
  return p;
}

static void
write_file (const char *path, const unsigned char *p, size_t len)
{
  FILE *f = fopen (path, "wb");
  if (!f || fwrite (p, 1, len, f) != len || fclose (f) != 0)
    die ("cannot write %s", path);
}

static uint64_t
get_le (const unsigned char *p, int n)
{
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

/* Finds the section "phsa.desc.<anything>.KERNEL" of the ELF64 file
   image; stores the launcher symbol ("<anything>.KERNEL") in SYM.  */
static descriptor
find_descriptor (const unsigned char *elf, size_t len, const char *kernel,
		 char *sym, size_t sym_cap)
{
  static const char prefix[] = "phsa.desc.";
  if (len < 64 || memcmp (elf, "\177ELF", 4) != 0 || elf[4] != 2)
    die ("%s", "not an ELF64 shared object");
  uint64_t shoff = get_le (elf + 0x28, 8);
  uint64_t shentsize = get_le (elf + 0x3a, 2);
  uint64_t shnum = get_le (elf + 0x3c, 2);
  uint64_t shstrndx = get_le (elf + 0x3e, 2);
  if (shentsize < 64 || shoff + shnum * shentsize > len || shstrndx >= shnum)
    die ("%s", "malformed ELF section table");
  const unsigned char *strsh = elf + shoff + shstrndx * shentsize;
  uint64_t stroff = get_le (strsh + 0x18, 8);
  uint64_t strsize = get_le (strsh + 0x20, 8);
  if (stroff + strsize > len)
    die ("%s", "malformed ELF section names");
  size_t klen = strlen (kernel);
  for (uint64_t i = 0; i < shnum; i++)
    {
      const unsigned char *sh = elf + shoff + i * shentsize;
      uint64_t name = get_le (sh, 4);
      if (name >= strsize)
	continue;
      const char *s = (const char *) elf + stroff + name;
      size_t slen = strnlen (s, strsize - name);
      size_t plen = sizeof prefix - 1;
      if (slen < plen + klen + 1 || memcmp (s, prefix, plen) != 0
	  || s[slen - klen - 1] != '.'
	  || memcmp (s + slen - klen, kernel, klen) != 0)
	continue;
      uint64_t off = get_le (sh + 0x18, 8);
      uint64_t size = get_le (sh + 0x20, 8);
      if (size < 15 || off + size > len || slen - plen >= sym_cap)
	die ("malformed descriptor section %s", s);
      memcpy (sym, s + plen, slen - plen + 1);
      const unsigned char *d = elf + off;
      descriptor desc = { (uint32_t) get_le (d + 1, 4),
			  (uint32_t) get_le (d + 5, 4),
			  (uint32_t) get_le (d + 9, 4),
			  (uint16_t) get_le (d + 13, 2) };
      return desc;
    }
  die ("no phsa.desc section for kernel %s", kernel);
  return (descriptor){ 0 };
}

/* Parses X[,Y[,Z]] into v (missing dimensions are 1); returns the count.  */
static int
parse_dims (const char *text, uint32_t v[3])
{
  int n = 0;
  const char *p = text;
  v[0] = v[1] = v[2] = 1;
  for (;;)
    {
      char *end;
      errno = 0;
      unsigned long x = strtoul (p, &end, 0);
      if (end == p || errno || x == 0 || x > 0xffffffffUL || n == 3)
	die ("bad dimensions %s", text);
      v[n++] = (uint32_t) x;
      if (*end == '\0')
	return n;
      if (*end != ',')
	die ("bad dimensions %s", text);
      p = end + 1;
    }
}

/* Parses one ARG (see the usage above).  */
static argument
parse_arg (const char *text, uint32_t *group_size)
{
  argument a = { 0 };
  const char *eq = strchr (text, '=');
  if (!eq)
    die ("bad argument %s (expected KIND=VALUE)", text);
  size_t kind_len = (size_t) (eq - text);
  const char *v = eq + 1;
  char *end;
  errno = 0;
#define KIND(k) (kind_len == strlen (k) && strncmp (text, k, kind_len) == 0)
  if (KIND ("buf"))
    {
      a.path = v;
      a.data = read_file (v, &a.len);
      uint64_t addr = (uint64_t) (uintptr_t) a.data;
      memcpy (a.bytes, &addr, 8);
      a.size = 8;
      return a;
    }
  if (KIND ("local"))
    {
      unsigned long long n = strtoull (v, &end, 0);
      uint64_t offset = ((uint64_t) *group_size + 15) / 16 * 16;
      if (errno || end == v || *end != '\0' || offset + n > 0xffffffffULL)
	die ("bad argument %s", text);
      *group_size = (uint32_t) (offset + n);
      uint32_t x = (uint32_t) offset;
      memcpy (a.bytes, &x, 4);
      a.size = 4;
      return a;
    }
  if (KIND ("u32") || KIND ("s32") || KIND ("u64") || KIND ("s64"))
    {
      uint64_t x = text[0] == 's' ? (uint64_t) strtoll (v, &end, 0)
				  : (uint64_t) strtoull (v, &end, 0);
      memcpy (a.bytes, &x, 8);
      a.size = text[1] == '3' ? 4 : 8;
      int64_t sx = (int64_t) x;
      int fits = a.size == 8 || (text[0] == 's' ? sx == (int32_t) sx
					      : x <= 0xffffffffULL);
      if (errno || !fits)
	die ("argument out of range: %s", text);
    }
  else if (KIND ("f32"))
    {
      float x = strtof (v, &end);
      memcpy (a.bytes, &x, 4);
      a.size = 4;
    }
  else if (KIND ("f64"))
    {
      double x = strtod (v, &end);
      memcpy (a.bytes, &x, 8);
      a.size = 8;
    }
  else
    die ("bad argument %s (kinds: buf local u32 s32 u64 s64 f32 f64)", text);
#undef KIND
  /* Denormal floats set ERANGE; they are values like any other.  */
  if (end == v || *end != '\0')
    die ("bad argument value %s", text);
  return a;
}

/* Lays the arguments out in a fresh kernarg segment, each at its natural
   alignment, in order, and checks the layout against the descriptor.  */
static void *
build_kernarg (argument *args, int nargs, descriptor desc)
{
  enum { SEGMENT_SIZE = 4096 };
  unsigned char *kernarg = aligned_alloc (256, SEGMENT_SIZE);
  if (!kernarg)
    die ("%s", "out of memory");
  memset (kernarg, 0, SEGMENT_SIZE);
  size_t offset = 0, max_align = 1;
  for (int i = 0; i < nargs; i++)
    {
      size_t size = args[i].size;
      offset = (offset + size - 1) / size * size;
      if (size > max_align)
	max_align = size;
      if (offset + size > SEGMENT_SIZE)
	die ("%s", "too many kernel arguments");
      memcpy (kernarg + offset, args[i].bytes, size);
      offset += size;
    }
  /* gccbrig rounds the segment size up to a multiple of 16, and records
     the largest argument alignment.  */
  if ((offset + 15) / 16 * 16 != desc.kernarg_size
      || (nargs > 0 && max_align != desc.kernarg_align))
    {
      fprintf (stderr,
	       "launch: the arguments take %zu kernarg bytes aligned to %zu, "
	       "the kernel declares %u aligned to %u\n",
	       offset, max_align, desc.kernarg_size,
	       (unsigned) desc.kernarg_align);
      exit (2);
    }
  return kernarg;
}

/* The launcher SYM of the shared object SO.  */
static launcher_fn
load_launcher (const char *so, const char *sym)
{
  /* dlopen searches the library path for a name without a slash.  */
  char *path = realpath (so, NULL);
  if (!path)
    die ("cannot find %s", so);
  void *lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    die ("%s", dlerror ());
  launcher_fn launcher = (launcher_fn) dlsym (lib, sym);
  if (!launcher)
    die ("no launcher symbol %s", sym);
  return launcher;
}

int
main (int argc, char **argv)
{
  if (argc < 5)
    die ("%s", "usage: launch SO KERNEL GRID GROUP [ARG]...");
  const char *so = argv[1];
  const char *kernel = argv[2][0] == '&' ? argv[2] + 1 : argv[2];

  dispatch_packet dp = { 0 };
  uint32_t grid[3], group[3];
  int dims = parse_dims (argv[3], grid);
  if (parse_dims (argv[4], group) > dims)
    die ("work-group %s has more dimensions than the grid", argv[4]);
  for (int i = 0; i < 3; i++)
    {
      if (group[i] > 0xffff)
	die ("work-group size %s too large", argv[4]);
      dp.grid_size[i] = grid[i];
      dp.workgroup_size[i] = (uint16_t) group[i];
    }
  dp.setup = (uint16_t) dims;

  size_t elf_len;
  unsigned char *elf = read_file (so, &elf_len);
  char sym[512];
  descriptor desc = find_descriptor (elf, elf_len, kernel, sym, sizeof sym);
  free (elf);

  int nargs = argc - 5;
  argument *args = calloc ((size_t) nargs + 1, sizeof *args);
  if (!args)
    die ("%s", "out of memory");
  uint32_t group_size = desc.group_size;
  for (int i = 0; i < nargs; i++)
    args[i] = parse_arg (argv[5 + i], &group_size);
  void *kernarg = build_kernarg (args, nargs, desc);
  void *group_base
    = aligned_alloc (256, ((size_t) group_size + 255) / 256 * 256 + 256);
  launch_data *ld = calloc (1, sizeof *ld);
  if (!group_base || !ld)
    die ("%s", "out of memory");
  dp.kernarg_address = kernarg;
  dp.group_segment_size = group_size;
  dp.private_segment_size = desc.private_size;
  ld->dp = &dp;
  ld->packet_id = 0;
  ld->kernarg_addr = kernarg;

  load_launcher (so, sym) (ld, group_base);

  int status = 0;
  for (int i = 0; i < nargs; i++)
    if (args[i].path)
      {
	write_file (args[i].path, args[i].data, args[i].len);
	for (size_t b = args[i].len; b < args[i].len + GUARD; b++)
	  if (args[i].data[b] != GUARD_BYTE)
	    {
	      fprintf (stderr,
		       "launch: the kernel wrote past the end of argument "
		       "%d (%zu bytes), at byte %zu\n",
		       i, args[i].len, b);
	      status = 3;
	      break;
	    }
      }
  return status;
}
