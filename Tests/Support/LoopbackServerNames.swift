// The tests' loopback server is the one `canopy demo` serves its shop with; the tests keep
// their own names for it.
@_exported import CanopyLoopbackServer

public typealias TestHTTPServer = LoopbackServer
public typealias TestHTTPRequest = LoopbackRequest
public typealias TestHTTPResponse = LoopbackResponse
@_exported import CanopyMeasurement
