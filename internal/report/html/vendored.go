package html

// The vendored charting library, for other pages of mongoload that draw
// charts (the live dashboard, internal/dashboard), so that one copy of
// uPlot is embedded in the binary.

// UPlotVersion is the vendored uPlot's version (assets/README.md).
const UPlotVersion = uPlotVersion

// UPlotJS returns uPlot's script (the IIFE build, which defines uPlot).
func UPlotJS() string { return uPlotJS }

// UPlotCSS returns uPlot's stylesheet.
func UPlotCSS() string { return uPlotCSS }

// UPlotLicense returns uPlot's MIT license, which must accompany it.
func UPlotLicense() string { return uPlotLicense }
