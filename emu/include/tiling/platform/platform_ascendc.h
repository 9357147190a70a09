// Host platform query (CANN's tiling/platform/platform_ascendc.h) answering for one Ascend 910B2: 24 AI cores (AIC),
// 48 vector cores (AIV), the per-core memory sizes of ascendc_api.md §4.1.
#pragma once

#include <cstdint>

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

// What the platform description answers directly (CANN's platform_infos_def.h), the same 910B2 as PlatformAscendC.
class PlatFormInfos {
 public:
  uint32_t GetCoreNum() const { return 48; }
  void GetLocalMemSize(const LocalMemType& mem_type, uint64_t& size) {
    switch (mem_type) {
      case LocalMemType::L0_A:
      case LocalMemType::L0_B: size = 64 * 1024; break;
      case LocalMemType::L0_C: size = 128 * 1024; break;
      case LocalMemType::L1: size = 512 * 1024; break;
      case LocalMemType::L2: size = 192ull * 1024 * 1024; break;
      case LocalMemType::UB: size = 192 * 1024; break;
      case LocalMemType::HBM: size = 64ull * 1024 * 1024 * 1024; break;
      default: size = 0; break;
    }
  }
};
}  // namespace fe

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, RESERVED_VERSION = 99999 };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}
  uint32_t GetCoreNum() const { return 48; }
  uint32_t GetCoreNumAic() const { return 24; }
  uint32_t GetCoreNumAiv() const { return 48; }
  uint32_t GetCoreNumVector() const { return 0; }
  // Mixed kernels launch one block per AIC (each with its two AIVs).
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    uint32_t ration = aivCoreNum / aicCoreNum;
    return (sliceNum + ration - 1) / ration;
  }
  uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024 * 1024; }
  uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
  uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
    switch (memType) {
      case CoreMemType::L0_A:
      case CoreMemType::L0_B: size = 64 * 1024; break;
      case CoreMemType::L0_C: size = 128 * 1024; break;
      case CoreMemType::L1: size = 512 * 1024; break;
      case CoreMemType::L2: size = 192ull * 1024 * 1024; break;
      case CoreMemType::UB: size = 192 * 1024; break;
      case CoreMemType::HBM: size = 64ull * 1024 * 1024 * 1024; break;
      default: size = 0; break;
    }
  }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  fe::PlatFormInfos* platformInfo() const { return platformInfo_; }

 private:
  fe::PlatFormInfos* platformInfo_;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static fe::PlatFormInfos infos;
    static PlatformAscendC platform(&infos);
    return &platform;
  }
};

}  // namespace platform_ascendc
