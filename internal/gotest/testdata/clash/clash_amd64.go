package clash

// wirebenchClientRequest is the worker's client request's name, here an
// assembly function of the package's own (zz_wirebench_request_amd64.s).
func wirebenchClientRequest(a, b uintptr) uintptr
