# Installs the SDK layout: include/, lib/ (+ CMake package), bin/ and enable.sh at the prefix.
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/poplar/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(POPSDK_EXPORTED_TARGETS poplar)
if(TARGET pva)
  list(APPEND POPSDK_EXPORTED_TARGETS pva)
endif()
install(TARGETS ${POPSDK_EXPORTED_TARGETS} EXPORT poplarTargets
        LIBRARY DESTINATION lib RUNTIME DESTINATION bin
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT poplarTargets NAMESPACE poplar:: DESTINATION lib/cmake/poplar)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/poplarConfig.cmake.in
  ${PROJECT_BINARY_DIR}/poplarConfig.cmake INSTALL_DESTINATION lib/cmake/poplar)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/poplarConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/poplarConfig.cmake ${PROJECT_BINARY_DIR}/poplarConfigVersion.cmake
        DESTINATION lib/cmake/poplar)

install(FILES ${PROJECT_SOURCE_DIR}/cmake/enable.sh DESTINATION .)
