# The two build helpers every PopLibs library uses:
#   poplibs_add_library(<lib> SOURCES ... [LIBS ...])  a shared library lib<lib>.so
#   poplibs_add_codelets(<lib> SOURCES ... [INCLUDES ...])  its vertices compiled by popc: <lib>.gp
# Both outputs land in ${POPLIBS_OUTPUT_DIR} in the build tree and in lib/ when installed, side by
# side, because <lib>::addCodelets finds <lib>.gp in the folder of lib<lib>.so.
set(POPLIBS_OUTPUT_DIR ${PROJECT_BINARY_DIR}/lib)
# Targets every codelet object is built for: the code is the same, the cycle figures differ.
set(POPLIBS_CODELET_TARGETS ipu1,ipu2,ipu21)

function(poplibs_add_library lib)
  cmake_parse_arguments(L "" "" "SOURCES;LIBS" ${ARGN})
  add_library(${lib} SHARED ${L_SOURCES})
  target_include_directories(${lib} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # The internal headers shared with the codelets (Vertices.def, device-side op headers).
  target_include_directories(${lib} PRIVATE ${PROJECT_SOURCE_DIR}/codelets
                             ${PROJECT_SOURCE_DIR}/codelets/include)
  # PUBLIC: a program linking only -l<lib> still gets what the headers use (libpoplar, ...).
  target_link_libraries(${lib} PUBLIC poplar ${L_LIBS} PRIVATE popsdk_support)
  set_target_properties(${lib} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${POPLIBS_OUTPUT_DIR})
  add_library(poplar::${lib} ALIAS ${lib})
  install(TARGETS ${lib} EXPORT poplarTargets LIBRARY DESTINATION lib)
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # For the header self-sufficiency test.
  set_property(GLOBAL APPEND PROPERTY POPLIBS_INCLUDE_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include)
endfunction()

function(poplibs_add_codelets lib)
  cmake_parse_arguments(C "" "" "SOURCES;INCLUDES" ${ARGN})
  set(gp ${POPLIBS_OUTPUT_DIR}/${lib}.gp)
  set(flags -O2 --target ${POPLIBS_CODELET_TARGETS} -I ${PROJECT_SOURCE_DIR}/codelets
            -I ${PROJECT_SOURCE_DIR}/codelets/include)
  foreach(dir IN LISTS C_INCLUDES)
    list(APPEND flags -I ${dir})
  endforeach()
  # Any header popc may read: the codelet folders and the include folders given.
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/codelets/*.hpp
       ${PROJECT_SOURCE_DIR}/codelets/*.def ${PROJECT_SOURCE_DIR}/codelets/include/*)
  foreach(dir IN LISTS C_INCLUDES)
    file(GLOB_RECURSE more CONFIGURE_DEPENDS ${dir}/*.hpp)
    list(APPEND headers ${more})
  endforeach()
  add_custom_command(OUTPUT ${gp}
    COMMAND popc ${flags} ${C_SOURCES} -o ${gp}
    DEPENDS popc ${C_SOURCES} ${headers}
    COMMENT "popc: ${lib}.gp" VERBATIM)
  add_custom_target(${lib}_codelets ALL DEPENDS ${gp})
  add_dependencies(${lib} ${lib}_codelets)
  install(FILES ${gp} DESTINATION lib)
endfunction()
