1000 REM 11-UP PATIENCE by Colin Gooch (ZX Computing 1984), reconstructed
1010 GO TO 1760
1020 DEF FN c(x)=6*(x-4*(x>4))-15*(x=9)
1030 DEF FN d(x)=1+6*(x>4)+6*(x>4 AND x<9)
1040 RANDOMIZE
1045 GO SUB 1400
1050 BORDER 4: PAPER 4: INK 0: CLS: PRINT AT 0,9; INK 7;"11-UP PATIENCE"
1060 LET c=1: FOR q=1 TO 9: LET x=FN c(q): LET y=FN d(q): GO SUB 1250
1070 PRINT AT y+5,x+2; INK 7;q: NEXT q
1080 PRINT AT 19,0;" Type the numbers of two cards  ";AT 20,0;" adding to 11, or of J Q K.     ";AT 21,0;" 9: new centre card  0: resign  "
1090 INPUT "Your move? ";z$
1100 IF z$="" OR LEN z$>3 THEN GO SUB h: GO TO g
1110 FOR n=1 TO LEN z$: IF CODE z$(n)<48+(LEN z$>1) OR CODE z$(n)>57 THEN GO SUB h: GO TO g
1120 LET z(n)=VAL z$(n): NEXT n
1130 FOR n=LEN z$+1 TO 3: LET z(n)=-n: NEXT n
1140 IF (z(1)=z(2))+(z(1)=z(3))+(z(2)=z(3)) THEN GO SUB h: GO TO g
1150 IF z$="0" THEN LET res=1: GO TO 1510
1160 IF LEN z$=1 AND (z(1)<>9 OR fa) THEN GO SUB h: GO TO g
1170 IF LEN z$=1 THEN LET fa=1
1180 IF LEN z$=2 THEN IF VAL r$(z(1))+VAL r$(z(2))<>11 THEN GO SUB h: GO TO g
1190 IF LEN z$=3 THEN IF VAL r$(z(1))+VAL r$(z(2))+VAL r$(z(3))<>36 THEN GO SUB h: GO TO g
1200 FOR n=1 TO LEN z$: IF c>260 THEN GO TO 1510
1210 LET q=z(n)
1220 LET x=FN c(q): LET y=FN d(q): GO SUB 1250: NEXT n: GO TO 1090+420*(c>260)
1230 BEEP .2,-20: INPUT "Not allowed - again? ";z$: IF z$="" THEN GO TO h
1240 RETURN
1250 LET f$=p$(c): LET r$(q)=p$(c+1 TO c+2): LET e$=p$(c+3): LET i=VAL p$(c+4): LET c=c+5
1260 PAPER 7: INK i: FOR j=y TO y+4: PRINT AT j,x;"     ": NEXT j
1270 PRINT AT y,x;f$;AT y+1,x;e$;AT y+3,x+4;e$;AT y+4,x+4;f$
1280 IF f$="J" THEN PRINT AT y,x+1;"\ .\::\:.";AT y+1,x+1;"\  \:.\: ";AT y+2,x+1;"\ .\.:\..";AT y+3,x+1;"\' \::\: ";AT y+4,x+1;"\  \: \: ": GO TO 1390
1290 IF f$="Q" THEN PRINT AT y,x+1;"\ :\..\: ";AT y+1,x+1;"\: \  \ :";AT y+2,x+1;"\''\..\''";AT y+3,x+1;"\ '\::\' ";AT y+4,x+1;"\.:\::\:.": GO TO 1390
1300 IF f$="K" THEN PRINT AT y,x+1;"\:.\::\.:";AT y+1,x+1;"\: \  \ :";AT y+2,x+1;"\ :\::\: ";AT y+3,x+1;"\::\::\::";AT y+4,x+1;"\::\''\::": GO TO 1390
1310 IF f$="A" OR f$="3" OR f$="5" OR f$="9" THEN PRINT AT y+2,x+2;e$
1320 IF f$="2" OR f$="3" THEN PRINT AT y,x+2;e$;AT y+4,x+2;e$
1330 IF f$>="4" AND f$<="9" OR f$="\a" THEN PRINT AT y,x+1;e$;AT y,x+3;e$;AT y+4,x+1;e$;AT y+4,x+3;e$
1340 IF f$>="6" AND f$<="8" THEN PRINT AT y+2,x+1;e$;AT y+2,x+3;e$
1350 IF f$="7" OR f$="8" THEN PRINT AT y+1,x+2;e$
1360 IF f$="8" THEN PRINT AT y+3,x+2;e$
1370 IF f$="9" OR f$="\a" THEN PRINT AT y+1,x+1;e$;AT y+1,x+3;e$;AT y+3,x+1;e$;AT y+3,x+3;e$
1380 IF f$="\a" THEN PRINT AT y+1,x+2;e$;AT y+3,x+2;e$
1390 PAPER 4: INK 0: RETURN
1400 REM make the pack
1410 LET d$="A01202303404505606707808909\a10J11Q12K13": LET b$="\b\c\d\e": LET a$=""
1420 FOR p=1 TO 4: LET col=2*(p=2 OR p=4)
1430 FOR f=1 TO 37 STEP 3: LET a$=a$+d$(f TO f+2)+b$(p)+STR$ col: NEXT f: NEXT p
1440 LET p$=a$
1450 REM shuffle: 60 cuts
1460 FOR n=1 TO 60: LET a=5*INT (RND*52)+1
1470 LET c$=p$(a TO a+4): LET p$=p$( TO a-1)+p$(a+5 TO )
1480 LET p$=(c$ AND n/2=INT (n/2))+p$+(c$ AND n/2<>INT (n/2)): BEEP .01,12+12*(n/2=INT (n/2))
1490 NEXT n: RETURN
1500 REM end of a game
1510 PRINT AT 19,0;"                                ";AT 20,0;"                                ": IF res THEN GO TO 1540
1520 PRINT AT 19,4; PAPER 6;"  WELL DONE - YOU WIN!  ";AT 20,4;"The pack is all used up."
1530 FOR n=0 TO 12 STEP 12: BEEP .1,n: BEEP .1,n+4: BEEP .1,n+7: NEXT n: BEEP .4,24: GO TO 1560
1540 PRINT AT 19,4; PAPER 2; INK 7;"      YOU RESIGNED      ";AT 20,4;"      Cards left: ";(261-c)/5;"    "
1550 FOR n=12 TO -12 STEP -4: BEEP .15,n: NEXT n
1560 PRINT AT 21,0;"       Another game? (Y/N)      ": PAUSE 0: LET k$=INKEY$
1570 IF k$="y" OR k$="Y" THEN GO SUB 1710: GO SUB 1710: GO SUB 1460: GO TO 1050
1580 IF k$<>"n" AND k$<>"N" THEN GO TO 1560
1590 BORDER 7: PAPER 7: INK 0: CLS: PRINT AT 10,6;"Thanks for playing.": STOP
1600 BORDER 1: PAPER 1: INK 7: CLS: PRINT AT 2,9; INK 6; BRIGHT 1;"11-UP PATIENCE";AT 3,9; INK 5;"\''\''\''\''\''\''\''\''\''\''\''\''\''\''";AT 4,9;"by Colin Gooch"
1610 LET l=7: LET t$="Nine cards are dealt: two rows": GO SUB 1690: LET t$="of four, and one in the centre.": GO SUB 1690
1620 LET t$="Cover two cards that add up to": GO SUB 1690: LET t$="11 (Ace counts 1), or a Jack,": GO SUB 1690
1630 LET t$="Queen and King, with new cards": GO SUB 1690: LET t$="from the pack: type the numbers": GO SUB 1690
1640 LET t$="under them, e.g. 27 or 368.": GO SUB 1690
1650 LET t$="No move? 9 covers the centre": GO SUB 1690: LET t$="card (once a game). 0 resigns.": GO SUB 1690
1660 LET t$="Use up the whole pack to win!": GO SUB 1690
1670 PRINT AT 20,5; FLASH 1;" Press any key to deal ": PAUSE 0
1680 GO SUB 1710: GO TO 1040
1690 FOR j=1 TO LEN t$: PRINT AT l,j;t$(j): BEEP .005,36: PAUSE 1: NEXT j
1700 LET l=l+1: RETURN
1710 LET res=0
1720 LET fa=0
1730 LET h=1230: LET g=1100
1740 DIM r$(9,5): DIM z(3)
1750 RETURN
1760 BORDER 0: PAPER 0: INK 7: CLS: PRINT AT 10,4;"Stop the tape, please."
1770 RESTORE 1780: FOR n=0 TO 4: FOR m=0 TO 7: READ a: POKE USR CHR$ (97+n)+m,a: NEXT m: NEXT n: GO TO 1600
1780 DATA 0,38,105,41,41,41,118,0
1790 DATA 0,16,56,124,254,214,16,56
1800 DATA 0,108,254,254,124,56,16,0
1810 DATA 0,56,56,214,254,214,16,56
1820 DATA 0,16,56,124,254,124,56,16
9990 SAVE "patience" LINE 1760
