/* One cuLaunchKernel (or cuLaunchKernelEx) from Python at the cost of a C call.
 *
 * cuda-python's cuLaunchKernel wrapper converts and checks each of its eleven
 * arguments as Python objects; on the launch path of a fresh kernel launch that
 * costs about as much as the driver call itself.  This module calls the driver
 * function it is given (its address: ``cuLaunchKernel`` or ``cuLaunchKernelEx``
 * of libcuda, resolved by runtime/cuda/driver.py) with integers only, block
 * (1, 1, 1) and no dynamic shared memory, as every safetile launch is (the cubin
 * carries its thread count).  ``launch_kernel_ex`` launches a programmatic
 * dependent (Hopper PDL): a kernel that waits (griddepcontrol.wait) before any
 * memory access may start while the kernel before it on its stream drains.  The
 * module owns no state and loads no library: with stand-in function addresses
 * it runs without a GPU (test/unit/test_launch_path.py,
 * test/unit/test_dependent_launch_path.py).
 *
 * Built against the limited API of Python 3.11 (one abi3 binary for 3.11 and
 * later).  Where it is not built, runtime/cuda/driver.py launches through
 * cuda-python instead.
 */
#define Py_LIMITED_API 0x030B0000
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int (*cu_launch_kernel)(void *function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                unsigned block_x, unsigned block_y, unsigned block_z,
                                unsigned shared_bytes, void *stream, void **params, void **extra);

static int as_unsigned(PyObject *value, unsigned *out) {
    unsigned long v = PyLong_AsUnsignedLong(value);
    if (v == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (v > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_OverflowError, "a grid extent does not fit in 32 bits");
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static int as_address(PyObject *value, void **out) {
    void *p = PyLong_AsVoidPtr(value);
    if (p == NULL && PyErr_Occurred())
        return -1;
    *out = p;
    return 0;
}

/* cuLaunchKernelEx's argument, declared as cuda.h declares it (no CUDA headers are
 * needed to build this module): CUlaunchAttributeValue, CUlaunchAttribute and
 * CUlaunchConfig of cuda.h (CUDA 12 and 13; these layouts are the driver's ABI;
 * checked against the cuda.h of CUDA 13.0 and 13.5).  Of the union's members only
 * the one set here is named, and a pointer giving it the full union's alignment. */
typedef enum { CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6 } CUlaunchAttributeID;

typedef union {
    char pad[64];
    int programmaticStreamSerializationAllowed;
    void *align; /* cuda.h's members hold pointers (accessPolicyWindow.base_ptr): 8-byte aligned */
} CUlaunchAttributeValue;

typedef struct {
    CUlaunchAttributeID id;
    char pad[8 - sizeof(CUlaunchAttributeID)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct {
    unsigned gridDimX, gridDimY, gridDimZ;
    unsigned blockDimX, blockDimY, blockDimZ;
    unsigned sharedMemBytes;
    void *hStream;
    CUlaunchAttribute *attrs;
    unsigned numAttrs;
} CUlaunchConfig;

/* The offsets the driver reads (64-bit hosts, the only ones CUDA 12 supports):
 * a mismatch fails the build, and launches go through cuda-python instead. */
_Static_assert(sizeof(CUlaunchAttributeID) == 4, "CUlaunchAttributeID is a 4-byte enum");
_Static_assert(sizeof(CUlaunchAttributeValue) == 64, "CUlaunchAttributeValue is 64 bytes");
_Static_assert(_Alignof(CUlaunchAttributeValue) == 8, "CUlaunchAttributeValue is 8-byte aligned");
_Static_assert(offsetof(CUlaunchAttribute, value) == 8, "CUlaunchAttribute.value at 8");
_Static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");
_Static_assert(offsetof(CUlaunchConfig, sharedMemBytes) == 24, "CUlaunchConfig.sharedMemBytes at 24");
_Static_assert(offsetof(CUlaunchConfig, hStream) == 32, "CUlaunchConfig.hStream at 32");
_Static_assert(offsetof(CUlaunchConfig, attrs) == 40, "CUlaunchConfig.attrs at 40");
_Static_assert(offsetof(CUlaunchConfig, numAttrs) == 48, "CUlaunchConfig.numAttrs at 48");
_Static_assert(sizeof(CUlaunchConfig) == 56, "CUlaunchConfig is 56 bytes");

typedef int (*cu_launch_kernel_ex)(const CUlaunchConfig *config, void *function, void **params, void **extra);

/* The arguments both calls take: (driver function address, function, grid_x, grid_y, grid_z,
 * stream, params). */
typedef struct {
    void *pfn, *function, *stream, *params;
    unsigned gx, gy, gz;
} launch_args;

static int parse(const char *name, const char *driver_call, PyObject *const *args, Py_ssize_t nargs,
                 launch_args *out) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "%s takes 7 arguments (%zd given)", name, nargs);
        return -1;
    }
    if (as_address(args[0], &out->pfn) || as_address(args[1], &out->function) || as_unsigned(args[2], &out->gx) ||
        as_unsigned(args[3], &out->gy) || as_unsigned(args[4], &out->gz) || as_address(args[5], &out->stream) ||
        as_address(args[6], &out->params))
        return -1;
    if (out->pfn == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: no %s address", name, driver_call);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(launch_kernel_doc,
             "launch_kernel(cu_launch_kernel, function, grid_x, grid_y, grid_z, stream, params) -> int\n\n"
             "Call the cuLaunchKernel at address cu_launch_kernel with block (1, 1, 1), no dynamic\n"
             "shared memory and kernelParams = params (a void** address); return its CUresult.");

static PyObject *launch_kernel(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    launch_args a;
    if (parse("launch_kernel", "cuLaunchKernel", args, nargs, &a))
        return NULL;
    int err;
    /* The driver may block while its launch queue is full: let other threads run. */
    Py_BEGIN_ALLOW_THREADS
    err = ((cu_launch_kernel)a.pfn)(a.function, a.gx, a.gy, a.gz, 1, 1, 1, 0, a.stream, (void **)a.params, NULL);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(err);
}

PyDoc_STRVAR(launch_kernel_ex_doc,
             "launch_kernel_ex(cu_launch_kernel_ex, function, grid_x, grid_y, grid_z, stream, params) -> int\n\n"
             "Call the cuLaunchKernelEx at address cu_launch_kernel_ex as launch_kernel calls\n"
             "cuLaunchKernel, with one launch attribute: PROGRAMMATIC_STREAM_SERIALIZATION = 1 (the\n"
             "kernel may start before the one before it on the stream ends); return its CUresult.");

static PyObject *launch_kernel_ex(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    launch_args a;
    if (parse("launch_kernel_ex", "cuLaunchKernelEx", args, nargs, &a))
        return NULL;
    CUlaunchAttribute attribute;
    memset(&attribute, 0, sizeof attribute); /* the union's unused bytes and the padding read as zero */
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = {a.gx, a.gy, a.gz, 1, 1, 1, 0, a.stream, &attribute, 1};
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = ((cu_launch_kernel_ex)a.pfn)(&config, a.function, (void **)a.params, NULL);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(err);
}

static PyMethodDef methods[] = {
    {"launch_kernel", (PyCFunction)(void (*)(void))launch_kernel, METH_FASTCALL, launch_kernel_doc},
    {"launch_kernel_ex", (PyCFunction)(void (*)(void))launch_kernel_ex, METH_FASTCALL, launch_kernel_ex_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_launch", "cuLaunchKernel and cuLaunchKernelEx called with integers (see _launch.c).", 0,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__launch(void) { return PyModule_Create(&module); }
