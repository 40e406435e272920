<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="town" tilewidth="16" tileheight="16" tilecount="97" columns="16">
 <image source="town.png" width="256" height="112"/>
 <tile id="0">
  <properties>
   <property name="kind" value="grass"/>
   <property name="glyph" value=","/>
   <property name="fg" value="#4f8a3a"/>
   <property name="bg" value="#1f3b1a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="kind" value="grass"/>
   <property name="glyph" value=" "/>
   <property name="fg" value="#3f7a2e"/>
   <property name="bg" value="#1f3b1a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="kind" value="flowers"/>
   <property name="glyph" value="*"/>
   <property name="fg" value="#e07aa8"/>
   <property name="bg" value="#1f3b1a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="kind" value="tree"/>
   <property name="glyph" value="♣"/>
   <property name="fg" value="#58b04a"/>
   <property name="bg" value="#1f3b1a"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="kind" value="hedge"/>
   <property name="glyph" value="%"/>
   <property name="fg" value="#3e7a36"/>
   <property name="bg" value="#1f3b1a"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="kind" value="road"/>
   <property name="glyph" value=" "/>
   <property name="fg" value="#6a6a6a"/>
   <property name="bg" value="#3a3a3a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="kind" value="road"/>
   <property name="glyph" value="·"/>
   <property name="fg" value="#c9b037"/>
   <property name="bg" value="#3a3a3a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="kind" value="sidewalk"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#8c8c8c"/>
   <property name="bg" value="#555555"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="kind" value="gravel"/>
   <property name="glyph" value=":"/>
   <property name="fg" value="#c2a878"/>
   <property name="bg" value="#4a3f2c"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="kind" value="water"/>
   <property name="glyph" value="~"/>
   <property name="fg" value="#8fc1ee"/>
   <property name="bg" value="#1d4270"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="kind" value="sand"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#e3d39a"/>
   <property name="bg" value="#7d6c3a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="kind" value="floor"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#6e533b"/>
   <property name="bg" value="#33251a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="kind" value="floor"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#5f5f70"/>
   <property name="bg" value="#26262e"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="kind" value="floor"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#7a4650"/>
   <property name="bg" value="#2e1a1f"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="kind" value="floor"/>
   <property name="glyph" value="."/>
   <property name="fg" value="#6a6a6a"/>
   <property name="bg" value="#2a2a2a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="kind" value="door"/>
   <property name="glyph" value="+"/>
   <property name="fg" value="#e0a85a"/>
   <property name="bg" value="#4a3320"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="kind" value="void"/>
   <property name="glyph" value=" "/>
   <property name="fg" value="#000000"/>
   <property name="bg" value="#000000"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="■"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="│"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="─"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="└"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="│"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="│"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┌"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="├"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="─"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┘"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="─"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┴"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┐"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┤"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┬"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="┼"/>
   <property name="fg" value="#d8cfc0"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="kind" value="bed"/>
   <property name="glyph" value="≡"/>
   <property name="fg" value="#c39bd3"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="34">
  <properties>
   <property name="kind" value="closet"/>
   <property name="glyph" value="▯"/>
   <property name="fg" value="#b08a64"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="35">
  <properties>
   <property name="kind" value="desk"/>
   <property name="glyph" value="π"/>
   <property name="fg" value="#d9955f"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="36">
  <properties>
   <property name="kind" value="shower"/>
   <property name="glyph" value="░"/>
   <property name="fg" value="#8fb8de"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="37">
  <properties>
   <property name="kind" value="bathroom sink"/>
   <property name="glyph" value="u"/>
   <property name="fg" value="#a9d3e8"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="38">
  <properties>
   <property name="kind" value="toilet"/>
   <property name="glyph" value="Ω"/>
   <property name="fg" value="#e8ecf2"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="39">
  <properties>
   <property name="kind" value="fridge"/>
   <property name="glyph" value="Θ"/>
   <property name="fg" value="#e0e6ee"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="40">
  <properties>
   <property name="kind" value="stove"/>
   <property name="glyph" value="¤"/>
   <property name="fg" value="#ee7050"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="41">
  <properties>
   <property name="kind" value="kitchen counter"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#c9a46a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="42">
  <properties>
   <property name="kind" value="kitchen sink"/>
   <property name="glyph" value="u"/>
   <property name="fg" value="#7fb8d8"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="43">
  <properties>
   <property name="kind" value="dining table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#d8b27e"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="44">
  <properties>
   <property name="kind" value="tv"/>
   <property name="glyph" value="▣"/>
   <property name="fg" value="#7fd0e0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="45">
  <properties>
   <property name="kind" value="sofa"/>
   <property name="glyph" value="ω"/>
   <property name="fg" value="#6d8fc7"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="46">
  <properties>
   <property name="kind" value="piano"/>
   <property name="glyph" value="♪"/>
   <property name="fg" value="#f2f2f2"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="47">
  <properties>
   <property name="kind" value="bookshelf"/>
   <property name="glyph" value="▤"/>
   <property name="fg" value="#c8a060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="48">
  <properties>
   <property name="kind" value="easel"/>
   <property name="glyph" value="Δ"/>
   <property name="fg" value="#ecc75a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="49">
  <properties>
   <property name="kind" value="guitar"/>
   <property name="glyph" value="♫"/>
   <property name="fg" value="#ecc75a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="50">
  <properties>
   <property name="kind" value="workbench"/>
   <property name="glyph" value="¬"/>
   <property name="fg" value="#d08a50"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="51">
  <properties>
   <property name="kind" value="sewing machine"/>
   <property name="glyph" value="§"/>
   <property name="fg" value="#d89ac0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="52">
  <properties>
   <property name="kind" value="flower bed"/>
   <property name="glyph" value="*"/>
   <property name="fg" value="#f08aa8"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="53">
  <properties>
   <property name="kind" value="garden bench"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#b58a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="54">
  <properties>
   <property name="kind" value="council table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#c9a46a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="55">
  <properties>
   <property name="kind" value="lectern"/>
   <property name="glyph" value="⊥"/>
   <property name="fg" value="#d8b27e"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="56">
  <properties>
   <property name="kind" value="public seating"/>
   <property name="glyph" value="h"/>
   <property name="fg" value="#a88460"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="57">
  <properties>
   <property name="kind" value="notice board"/>
   <property name="glyph" value="□"/>
   <property name="fg" value="#e8d8a0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="58">
  <properties>
   <property name="kind" value="reception desk"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#c9a46a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="59">
  <properties>
   <property name="kind" value="filing cabinet"/>
   <property name="glyph" value="▯"/>
   <property name="fg" value="#9aa4b0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="60">
  <properties>
   <property name="kind" value="cafe counter"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#d09a60"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="61">
  <properties>
   <property name="kind" value="behind the counter"/>
   <property name="glyph" value="_"/>
   <property name="fg" value="#9a7a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="62">
  <properties>
   <property name="kind" value="espresso machine"/>
   <property name="glyph" value="Ø"/>
   <property name="fg" value="#e08a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="63">
  <properties>
   <property name="kind" value="cafe table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#e0b880"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="64">
  <properties>
   <property name="kind" value="bar counter"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#b8804a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="65">
  <properties>
   <property name="kind" value="beer tap"/>
   <property name="glyph" value="¥"/>
   <property name="fg" value="#f0c040"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="66">
  <properties>
   <property name="kind" value="pub table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#c89a60"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="67">
  <properties>
   <property name="kind" value="pool table"/>
   <property name="glyph" value="▒"/>
   <property name="fg" value="#3fa04a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="68">
  <properties>
   <property name="kind" value="dartboard"/>
   <property name="glyph" value="◎"/>
   <property name="fg" value="#e05a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="69">
  <properties>
   <property name="kind" value="jukebox"/>
   <property name="glyph" value="♬"/>
   <property name="fg" value="#e070e0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="70">
  <properties>
   <property name="kind" value="blackboard"/>
   <property name="glyph" value="▀"/>
   <property name="fg" value="#3a9a6a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="71">
  <properties>
   <property name="kind" value="student desk"/>
   <property name="glyph" value="π"/>
   <property name="fg" value="#c8a070"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="72">
  <properties>
   <property name="kind" value="computer"/>
   <property name="glyph" value="▣"/>
   <property name="fg" value="#7ad0a0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="73">
  <properties>
   <property name="kind" value="washing machine"/>
   <property name="glyph" value="◙"/>
   <property name="fg" value="#c0ccd8"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="74">
  <properties>
   <property name="kind" value="ping-pong table"/>
   <property name="glyph" value="▒"/>
   <property name="fg" value="#4a8ad0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="75">
  <properties>
   <property name="kind" value="reading table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#c8a070"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="76">
  <properties>
   <property name="kind" value="reading chair"/>
   <property name="glyph" value="h"/>
   <property name="fg" value="#b07a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="77">
  <properties>
   <property name="kind" value="checkout desk"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#c9a46a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="78">
  <properties>
   <property name="kind" value="grocery shelf"/>
   <property name="glyph" value="¦"/>
   <property name="fg" value="#a8d080"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="79">
  <properties>
   <property name="kind" value="produce stand"/>
   <property name="glyph" value="♦"/>
   <property name="fg" value="#e0a040"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="80">
  <properties>
   <property name="kind" value="checkout counter"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#c9a46a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="81">
  <properties>
   <property name="kind" value="pharmacy shelf"/>
   <property name="glyph" value="¦"/>
   <property name="fg" value="#7fc8e0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="82">
  <properties>
   <property name="kind" value="pharmacy counter"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#a0c8e0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="83">
  <properties>
   <property name="kind" value="waiting chairs"/>
   <property name="glyph" value="h"/>
   <property name="fg" value="#8aa0b8"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="84">
  <properties>
   <property name="kind" value="product shelf"/>
   <property name="glyph" value="¦"/>
   <property name="fg" value="#d0b070"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="85">
  <properties>
   <property name="kind" value="tool rack"/>
   <property name="glyph" value="†"/>
   <property name="fg" value="#c07850"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="86">
  <properties>
   <property name="kind" value="storage shelf"/>
   <property name="glyph" value="¦"/>
   <property name="fg" value="#a08060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="87">
  <properties>
   <property name="kind" value="fountain"/>
   <property name="glyph" value="◊"/>
   <property name="fg" value="#8fd0f0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="88">
  <properties>
   <property name="kind" value="park bench"/>
   <property name="glyph" value="="/>
   <property name="fg" value="#b58a5a"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="89">
  <properties>
   <property name="kind" value="swing set"/>
   <property name="glyph" value="Ħ"/>
   <property name="fg" value="#e0c060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="90">
  <properties>
   <property name="kind" value="slide"/>
   <property name="glyph" value="/"/>
   <property name="fg" value="#e06060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="91">
  <properties>
   <property name="kind" value="vegetable patch"/>
   <property name="glyph" value='"'/>
   <property name="fg" value="#90d060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="92">
  <properties>
   <property name="kind" value="picnic table"/>
   <property name="glyph" value="○"/>
   <property name="fg" value="#c09060"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="93">
  <properties>
   <property name="kind" value="tool shed"/>
   <property name="glyph" value="⌂"/>
   <property name="fg" value="#b08050"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="94">
  <properties>
   <property name="kind" value="pond"/>
   <property name="glyph" value="~"/>
   <property name="fg" value="#8fc1ee"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="95">
  <properties>
   <property name="kind" value="furniture"/>
   <property name="glyph" value="•"/>
   <property name="fg" value="#d0c0a0"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="96">
  <properties>
   <property name="kind" value="wall"/>
   <property name="glyph" value="█"/>
   <property name="fg" value="#6b6258"/>
   <property name="bg" value="#4a4038"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
</tileset>
