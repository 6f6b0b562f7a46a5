"""Frontend: Python kernel source (``ast``) to ``cuda_tile`` IR.

One module per concern, in the order data flows through them:

* ``dsl``       the names kernels use: dtypes, ``st.Mut``/``st.Ref``/``st.Ptr``,
                ``st.TensorSpec``, and the kernel-language functions (stubs);
* ``kernel``    ``@st.kernel``/``@st.function``: signatures, specialization,
                the variant cache, ``compile()``;
* ``parse``     reading a function's source and resolving its free names;
* ``abi``       the entry parameter list and the tensor views built from it;
* ``lower``     the AST visitor: statements, expressions, control flow;
* ``scope``     the local names of a function being lowered;
* ``types``     runtime values (tiles, tensors, partitions) and typing rules;
* ``core``      IR helpers every lowering shares (constants, broadcasting,
                emitting an op, checking operands);
* ``builtins``  the lowering table, filled by the ``ops_<family>`` modules,
                one per family of the dialect's ops (``ops_arith``,
                ``ops_math``, ``ops_compare``, ``ops_conversion``,
                ``ops_shape``, ``ops_reduction``, ``ops_mma``, ``ops_memory``,
                ``ops_misc``); ``pybuiltins`` gives Python's builtins
                (``len``, ``max``, ``print``...) their kernel meaning;
* ``emit``      where ops go and which source line made each;
* ``errors``    ``CompileError`` with ``file:line:col``, the line and a caret;
* ``pyfile``    the kernels of a Python file, for ``tile-opt kernels.py``.

It emits ``cuda_tile`` plus the ``tile_safety`` facts (index checks, access
modes, unsafe marks) that the safety passes consume; it never imports the
runtime.
"""
