// ge::TensorDesc (CANN's graph/tensor.h): a tensor's shape, origin shape, format and dtype, as graph-mode host code
// (CheckSupported, OpSelectFormat functions) reads them from a ge::Operator.
#pragma once

#include "graph/shape.h"
#include "graph/types.h"

namespace ge {

class TensorDesc {
 public:
  TensorDesc() = default;
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
      : shape_(shape), originShape_(shape), format_(format), originFormat_(format), dtype_(dt) {}
  Shape GetShape() const { return shape_; }
  void SetShape(const Shape& shape) { shape_ = shape; }
  Shape GetOriginShape() const { return originShape_; }
  void SetOriginShape(const Shape& shape) { originShape_ = shape; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }
  Format GetOriginFormat() const { return originFormat_; }
  void SetOriginFormat(Format format) { originFormat_ = format; }
  DataType GetDataType() const { return dtype_; }
  void SetDataType(DataType dt) { dtype_ = dt; }

 private:
  Shape shape_, originShape_;
  Format format_ = FORMAT_ND, originFormat_ = FORMAT_ND;
  DataType dtype_ = DT_FLOAT;
};

}  // namespace ge
