//! ONNX Cast tests (being written).
