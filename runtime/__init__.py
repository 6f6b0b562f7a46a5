"""Runtime: tensors, partitions, launches and device operations."""
