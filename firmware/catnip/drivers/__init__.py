# Device drivers: the only firmware code that talks to `machine`.
