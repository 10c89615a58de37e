# The Debian package, built by CPack (`cmake --build build --target deb`, or deploy/package.sh):
# storefront_<project version>_amd64.deb with /usr/bin/storefront (the `server` component only: no test or
# benchmark binary), both systemd units, the commented environment file as a conffile, and the maintainer
# scripts of deploy/debian/ (storefront user, state directory, secrets generated at install time).
set(storefront_debian "${CMAKE_CURRENT_LIST_DIR}")
# Whoever builds the package for their machines puts their own contact here (-DSTOREFRONT_PACKAGE_CONTACT=…).
set(STOREFRONT_PACKAGE_CONTACT "storefront maintainers <maintainers@storefront.example>"
    CACHE STRING "Maintainer field of the Debian package (and of its changelog entry)")

install(FILES "${PROJECT_SOURCE_DIR}/deploy/storefront.service" "${PROJECT_SOURCE_DIR}/deploy/storefront@.service"
    DESTINATION /lib/systemd/system COMPONENT server)
install(FILES "${PROJECT_SOURCE_DIR}/deploy/storefront.env" DESTINATION /etc/storefront COMPONENT server)
install(FILES "${storefront_debian}/copyright" DESTINATION share/doc/storefront COMPONENT server)
# changelog.gz with the version of project(), compressed reproducibly (no name or time stamp) as Debian's is.
configure_file("${storefront_debian}/changelog.in" "${PROJECT_BINARY_DIR}/debian/changelog" @ONLY)
execute_process(
    COMMAND gzip -n -9 -c changelog
    WORKING_DIRECTORY "${PROJECT_BINARY_DIR}/debian"
    OUTPUT_FILE "${PROJECT_BINARY_DIR}/debian/changelog.gz"
    COMMAND_ERROR_IS_FATAL ANY
)
install(FILES "${PROJECT_BINARY_DIR}/debian/changelog.gz" DESTINATION share/doc/storefront COMPONENT server)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME storefront)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${STOREFRONT_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "demo online-store HTTP API (fake store and petstore) as a service")
set(CPACK_PACKAGE_DESCRIPTION
    "storefront serves the demo online-store API that front-end courses, demos\n"
    "and load tests use (products, categories, users, JWT login and locations\n"
    "under /api/v1) and the Swagger petstore v3 surface under /api/v3, with\n"
    "/docs, /metrics, /healthz and /readyz. It runs as the storefront system\n"
    "user under systemd (storefront.service, or storefront@N instances behind a\n"
    "load balancer), reads /etc/storefront/storefront.env and keeps its SQLite\n"
    "data in /var/lib/storefront.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Only the install rules of the `server` component go into the package, whatever else a build defines.
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};storefront;server;/")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/storefront/storefront")
# Depends: the shared libraries the executable links, found by dpkg-shlibdeps, plus adduser for postinst.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${storefront_debian}/conffiles" "${storefront_debian}/postinst" "${storefront_debian}/prerm"
    "${storefront_debian}/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# CPack's own `package` target would first build `all`, the test executables included, though the package holds
# only the server: `deb` builds `storefront` alone and then packs it (the test command's build/ builds no test
# executable, deploy/quickstart.sh).
set(CMAKE_SKIP_PACKAGE_ALL_DEPENDENCY ON)
include(CPack)
add_custom_target(deb
    COMMAND "${CMAKE_CPACK_COMMAND}" --config "${PROJECT_BINARY_DIR}/CPackConfig.cmake"
    WORKING_DIRECTORY "${PROJECT_BINARY_DIR}"
    COMMENT "Packing storefront into a Debian package"
    USES_TERMINAL)
add_dependencies(deb storefront)
