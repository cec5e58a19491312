# SPDX-License-Identifier: BSD-3-Clause
# Embeds a text file as a C string: cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/embed.cmake. */\nconst char ${NAME}[] = {${hex}0};\n")
