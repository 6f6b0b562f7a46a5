/* One cuLaunchKernel from Python at the cost of a C call.
 *
 * cuda-python's cuLaunchKernel wrapper converts and checks each of its eleven
 * arguments as Python objects; on the launch path of a fresh kernel launch that
 * costs about as much as the driver call itself.  This module calls the driver
 * function it is given (its address: ``cuLaunchKernel`` of libcuda, resolved by
 * runtime/cuda/driver.py) with integers only, block (1, 1, 1) and no dynamic
 * shared memory, as every safetile launch is (the cubin carries its thread
 * count).  It owns no state and loads no library: with a stand-in function
 * address it runs without a GPU (test/unit/test_launch_path.py).
 *
 * Built against the limited API of Python 3.11 (one abi3 binary for 3.11 and
 * later).  Where it is not built, runtime/cuda/driver.py launches through
 * cuda-python instead.
 */
#define Py_LIMITED_API 0x030B0000
#include <Python.h>
#include <stdint.h>

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

PyDoc_STRVAR(launch_kernel_doc,
             "launch_kernel(cu_launch_kernel, function, grid_x, grid_y, grid_z, stream, params) -> int\n\n"
             "Call the cuLaunchKernel at address cu_launch_kernel with block (1, 1, 1), no dynamic\n"
             "shared memory and kernelParams = params (a void** address); return its CUresult.");

static PyObject *launch_kernel(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "launch_kernel takes 7 arguments (%zd given)", nargs);
        return NULL;
    }
    void *pfn, *function, *stream, *params;
    unsigned gx, gy, gz;
    if (as_address(args[0], &pfn) || as_address(args[1], &function) || as_unsigned(args[2], &gx) ||
        as_unsigned(args[3], &gy) || as_unsigned(args[4], &gz) || as_address(args[5], &stream) ||
        as_address(args[6], &params))
        return NULL;
    if (pfn == NULL) {
        PyErr_SetString(PyExc_ValueError, "launch_kernel: no cuLaunchKernel address");
        return NULL;
    }
    int err;
    /* The driver may block while its launch queue is full: let other threads run. */
    Py_BEGIN_ALLOW_THREADS
    err = ((cu_launch_kernel)pfn)(function, gx, gy, gz, 1, 1, 1, 0, stream, (void **)params, NULL);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(err);
}

static PyMethodDef methods[] = {
    {"launch_kernel", (PyCFunction)(void (*)(void))launch_kernel, METH_FASTCALL, launch_kernel_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_launch", "cuLaunchKernel called with integers (see _launch.c).", 0, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__launch(void) { return PyModule_Create(&module); }
